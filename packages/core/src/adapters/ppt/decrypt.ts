/**
 * PowerPoint 2002/2003 password encryption ([MS-PPT] 2.3.7): RC4 CryptoAPI, its encryption header in
 * a CryptSession10Container that the UserEditAtom names. The Current User stream, the UserEditAtom and
 * the PersistDirectoryAtom stay plain, so the persist directory is read as usual; every other persist
 * object is encrypted from its record header on, with the key of block number = its persist id. In
 * the Pictures stream each field of each picture record (header, UIDs, tag or metafile header, data)
 * is encrypted with the key of block 0, the keystream starting again for every field.
 */
import { badInput, passwordError } from '../../errors.ts';
import { type KeyFor, rc4, rc4Keys, rc4Version } from '../../util/rc4.ts';
import { Bytes } from '../cfb/bytes.ts';
import type { Persist } from './persist.ts';
import { RT, recordAt } from './records.ts';

/**
 * What PowerPoint encrypts with when a file has only a password to modify ([MS-OFFCRYPTO] 2.4.2.3):
 * such files open without asking. Written as the spec prints it and with its 0x01 characters.
 */
const DEFAULT_PASSWORDS = ['/01Hannes Ruescher/01', '\x01Hannes Ruescher\x01'];

/** XORs `data[from, from + n)` with the first `n` bytes of a block's keystream. */
function xorWith(keyFor: KeyFor, block: number, data: Uint8Array, from: number, n: number): void {
  const ks = rc4(keyFor(block), n);
  for (let i = 0; i < n; i++) data[from + i] = (data[from + i] as number) ^ (ks[i] as number);
}

/** Each persist object decrypted in place, one keystream per object, keyed by its id. */
function decryptObjects(doc: Uint8Array, persist: Persist, sessionId: number, keyFor: KeyFor): void {
  const done = new Set<number>();
  for (const [id, at] of persist.offsets) {
    if (id === sessionId || done.has(at) || at + 8 > doc.length) continue;
    done.add(at);
    // The header's length is encrypted too: decrypt 8 bytes, read it, then decrypt the whole object
    // again from the start of the same keystream.
    const head = doc.slice(at, at + 8);
    xorWith(keyFor, id, head, 0, 8);
    const len = Math.min(doc.length - at, 8 + new DataView(head.buffer).getUint32(4, true));
    xorWith(keyFor, id, doc, at, len);
  }
}

const BLIP_FIRST = 0xf018;
const BLIP_LAST = 0xf117;
const METAFILES = new Set([0xf01a, 0xf01b, 0xf01c]);

/** The Pictures stream decrypted record by record; a record that does not decrypt to a picture ends it. */
function decryptPictures(pictures: Uint8Array, keyFor: KeyFor): Uint8Array {
  const out = pictures.slice();
  const view = new DataView(out.buffer);
  const field = (from: number, to: number) =>
    xorWith(keyFor, 0, out, from, Math.max(0, Math.min(to, out.length) - from));
  for (let p = 0; p + 8 <= out.length; ) {
    field(p, p + 8);
    const inst = view.getUint16(p, true) >> 4;
    const type = view.getUint16(p + 2, true);
    const end = p + 8 + view.getUint32(p + 4, true);
    if (type < BLIP_FIRST || type > BLIP_LAST || end > out.length) break;
    // Two UIDs when the instance is the odd one of its pair ([MS-ODRAW] 2.2.23–2.2.31).
    const sizes = [16, ...(inst & 1 ? [16] : []), METAFILES.has(type) ? 34 : 1];
    let at = p + 8;
    for (const size of sizes) {
      field(at, at + size);
      at += size;
    }
    field(at, end);
    p = end;
  }
  return out;
}

export interface DecryptedPpt {
  doc: Uint8Array;
  pictures: Uint8Array | undefined;
}

/**
 * The document and Pictures streams of an encrypted presentation, decrypted with the caller's
 * password (or PowerPoint's default one). A missing or wrong password is the password 400.
 */
export function decryptPpt(
  doc: Uint8Array,
  pictures: Uint8Array | undefined,
  persist: Persist,
  password: string | undefined,
): DecryptedPpt {
  const sessionId = persist.cryptSessionId as number;
  const at = persist.offsets.get(sessionId);
  const s = new Bytes(doc, 'PowerPoint document stream');
  const session = at === undefined ? undefined : recordAt(s, at, doc.length);
  if (!session || session.type !== RT.cryptSession)
    throw badInput('The presentation is encrypted and its encryption record is missing or damaged.');
  const info = doc.subarray(session.body, session.end);
  if (rc4Version(info) !== 'cryptoapi')
    throw badInput('The presentation is encrypted in a way this engine does not read.');
  const keyFor = rc4Keys(info, password === undefined ? DEFAULT_PASSWORDS : [password, ...DEFAULT_PASSWORDS]);
  if (!keyFor) throw passwordError('The PowerPoint presentation', password);
  const plain = doc.slice();
  decryptObjects(plain, persist, sessionId, keyFor);
  return { doc: plain, pictures: pictures && decryptPictures(pictures, keyFor) };
}
