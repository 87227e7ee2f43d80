import { badInput, passwordError } from '../../errors.ts';
import { rc4Decryptor, rc4Keys, rc4Version } from '../../util/rc4.ts';

/** FibBase ([MS-DOC] 2.5.2): the first 68 bytes of the WordDocument stream are never encrypted. */
const FIB_BASE = 0x44;
const F_ENCRYPTED = 0x0100;
const F_OBFUSCATED = 0x8000;
/** Word rekeys RC4 every 512 bytes of each stream (Excel every 1024). */
const BLOCK = 512;

export interface DocStreams {
  word: Uint8Array;
  table: Uint8Array | undefined;
  data: Uint8Array | undefined;
}

/**
 * A Word 97–2003 file encrypted with RC4 or RC4 CryptoAPI ([MS-DOC] 2.2.6.2): the encryption
 * header opens the Table stream (FibBase.lKey bytes); the WordDocument stream after its FibBase,
 * the Table stream and the Data stream are encrypted from their first byte. Returns the streams
 * decrypted, with the FIB saying "not encrypted", or the same streams when the file is plain.
 * XOR obfuscation and Word 6/95 encryption keep their 400.
 */
export function decryptDoc(streams: DocStreams, password: string | undefined): DocStreams {
  const { word, table } = streams;
  if (word.length < FIB_BASE || !table) return streams;
  const flags = (word[0x0a] as number) | ((word[0x0b] as number) << 8);
  const nFib = (word[2] as number) | ((word[3] as number) << 8);
  if (!(flags & F_ENCRYPTED) || flags & F_OBFUSCATED || nFib < 0xc1) return streams;
  const lKey = new DataView(word.buffer, word.byteOffset, word.byteLength).getUint32(0x0e, true);
  const info = table.subarray(0, Math.min(lKey, table.length));
  if (!rc4Version(info))
    throw badInput('The Word document is password-protected with an encryption this engine does not read.');
  const keyFor = password === undefined ? undefined : rc4Keys(info, [password]);
  if (!keyFor) throw passwordError('The Word document', password);
  const decrypt = (bytes: Uint8Array, from: number) => {
    const out = new Uint8Array(bytes);
    rc4Decryptor(keyFor, BLOCK)(out, from, out.length);
    return out;
  };
  const plainWord = decrypt(word, FIB_BASE);
  const wv = new DataView(plainWord.buffer);
  wv.setUint16(0x0a, flags & ~F_ENCRYPTED, true);
  wv.setUint32(0x0e, 0, true);
  // The Table stream's first lKey bytes (the header) decrypt to noise; nothing points there.
  return {
    word: plainWord,
    table: decrypt(table, 0),
    data: streams.data ? decrypt(streams.data, 0) : undefined,
  };
}
