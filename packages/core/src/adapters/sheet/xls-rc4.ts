/**
 * Excel 97–2003 workbooks encrypted with RC4 ([MS-XLS] 2.4.117 FilePass, [MS-OFFCRYPTO] 2.3.6):
 * the record bodies of the Workbook stream are RC4-encrypted, rekeyed every 1024 bytes of the
 * stream (headers are not encrypted but use up keystream). Many are encrypted only with Excel's
 * default password "VelvetSweatshop" and open without a prompt; those are decrypted here before
 * SheetJS reads the workbook, and so are others when the caller gives the password.
 * RC4 (Office 97/2000, MD5 keys) and RC4 CryptoAPI (Office 2002/2003, SHA-1 keys) are read.
 */
import { badInput } from '../../errors.ts';
import { rc4Decryptor, rc4Keys, rc4Version } from '../../util/rc4.ts';

const FILEPASS = 0x002f;
const BOF = 0x0809;
/** Records whose bodies are never encrypted. */
const PLAIN = new Set([BOF, FILEPASS, 0x0194, 0x0195, 0x00e1, 0x0196, 0x0138]);
/** BoundSheet8: its first 4 bytes (the stream offset of the sheet) stay plain. */
const BOUNDSHEET = 0x0085;
const BLOCK = 1024;
/** A record type SheetJS skips, written over FILEPASS once the stream is decrypted (offsets stay put). */
const SKIPPED = 0x00ef;

/** Offset of the FilePass record in the workbook globals, or -1. */
export function filePassAt(stream: Uint8Array): number {
  const v = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  for (let p = 0; p + 4 <= stream.length; ) {
    const type = v.getUint16(p, true);
    if (type === FILEPASS) return p;
    // FilePass comes right after the globals' BOF; stop at the first sheet.
    if (p > 0 && type === BOF) return -1;
    p += 4 + v.getUint16(p + 2, true);
  }
  return -1;
}

/**
 * Decrypts an encrypted Workbook stream with the first password that opens it; undefined when none
 * does. XOR obfuscation and unknown RC4 versions are refused with a 400.
 */
export function decryptWorkbook(stream: Uint8Array, passwords: string[]): Uint8Array | undefined {
  const at = filePassAt(stream);
  if (at < 0) return stream;
  const v = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  const body = stream.subarray(at + 4, at + 4 + v.getUint16(at + 2, true));
  if (body.length < 6 || body[0] !== 1 || body[1] !== 0)
    throw badInput('The workbook is protected with XOR obfuscation, which this engine does not read.');
  // After wEncryptionType comes the encryption header every RC4-encrypted Office file has.
  const info = body.subarray(2);
  if (!rc4Version(info)) throw badInput('The workbook is encrypted in a way this engine does not read.');
  const keyFor = rc4Keys(info, passwords);
  if (!keyFor) return undefined;
  const out = new Uint8Array(stream);
  const ov = new DataView(out.buffer);
  const xorAt = rc4Decryptor(keyFor, BLOCK);
  for (let p = 0; p + 4 <= out.length; ) {
    const type = ov.getUint16(p, true);
    const size = ov.getUint16(p + 2, true);
    const start = p + 4;
    const end = Math.min(out.length, start + size);
    if (p > at && !PLAIN.has(type)) xorAt(out, type === BOUNDSHEET ? start + 4 : start, end);
    p = end;
  }
  ov.setUint16(at, SKIPPED, true);
  return out;
}
