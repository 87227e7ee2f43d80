/**
 * Excel 97–2003 workbooks encrypted with RC4 ([MS-XLS] 2.4.117 FilePass, [MS-OFFCRYPTO] 2.3.6):
 * the record bodies of the Workbook stream are RC4-encrypted, rekeyed every 1024 bytes of the
 * stream (headers are not encrypted but use up keystream). Many are encrypted only with Excel's
 * default password "VelvetSweatshop" and open without a prompt; those are decrypted here before
 * SheetJS reads the workbook, and so are others when the caller gives the password.
 * RC4 (Office 97/2000, MD5 keys) and RC4 CryptoAPI (Office 2002/2003, SHA-1 keys) are read.
 */
import { badInput } from '../../errors.ts';
import { concatBytes as concat, equalBytes as equal, u32le, utf16le } from '../../util/bytes.ts';
import { md5, sha1 } from '../../util/sha.ts';

const FILEPASS = 0x002f;
const BOF = 0x0809;
/** Records whose bodies are never encrypted. */
const PLAIN = new Set([BOF, FILEPASS, 0x0194, 0x0195, 0x00e1, 0x0196, 0x0138]);
/** BoundSheet8: its first 4 bytes (the stream offset of the sheet) stay plain. */
const BOUNDSHEET = 0x0085;
const BLOCK = 1024;
/** A record type SheetJS skips, written over FILEPASS once the stream is decrypted (offsets stay put). */
const SKIPPED = 0x00ef;

function rc4(key: Uint8Array, length: number): Uint8Array {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + (s[i] as number) + (key[i % key.length] as number)) & 0xff;
    [s[i], s[j]] = [s[j] as number, s[i] as number];
  }
  const out = new Uint8Array(length);
  for (let n = 0, i = 0, j = 0; n < length; n++) {
    i = (i + 1) & 0xff;
    j = (j + (s[i] as number)) & 0xff;
    [s[i], s[j]] = [s[j] as number, s[i] as number];
    out[n] = s[((s[i] as number) + (s[j] as number)) & 0xff] as number;
  }
  return out;
}

/** The per-block RC4 key for a password, or undefined when the verifier rejects the password. */
type KeyFor = (block: number) => Uint8Array;

/** Office 97/2000 RC4 ([MS-OFFCRYPTO] 2.3.6.2): MD5 of the password, salted 16 times, cut to 40 bits. */
function standardKey(body: Uint8Array, password: string): KeyFor | undefined {
  if (body.length < 54) return undefined;
  const salt = body.subarray(6, 22);
  const h0 = md5(utf16le(password)).subarray(0, 5);
  const spread = new Uint8Array(21 * 16);
  for (let i = 0; i < 16; i++) spread.set(concat(h0, salt), i * 21);
  const truncated = md5(spread).subarray(0, 5);
  const keyFor: KeyFor = (block) => md5(concat(truncated, u32le(block)));
  const stream = rc4(keyFor(0), 32);
  const verifier = body.subarray(22, 38).map((b, i) => b ^ (stream[i] as number));
  const hash = body.subarray(38, 54).map((b, i) => b ^ (stream[16 + i] as number));
  return equal(md5(verifier), hash) ? keyFor : undefined;
}

/** Office 2002/2003 RC4 CryptoAPI ([MS-OFFCRYPTO] 2.3.5.2): SHA-1 of salt and password, key per block. */
function cryptoApiKey(body: Uint8Array, password: string): KeyFor | undefined {
  const v = new DataView(body.buffer, body.byteOffset, body.byteLength);
  if (body.length < 14) return undefined;
  const headerSize = v.getUint32(10, true);
  const header = 14;
  if (header + 20 > body.length) return undefined;
  const keyBits = v.getUint32(header + 16, true) || 40;
  const ver = header + headerSize;
  if (ver + 4 > body.length) return undefined;
  const saltSize = v.getUint32(ver, true);
  const salt = body.subarray(ver + 4, ver + 4 + saltSize);
  const encVerifier = body.subarray(ver + 4 + saltSize, ver + 20 + saltSize);
  const hashSize = v.getUint32(ver + 20 + saltSize, true);
  const encHash = body.subarray(ver + 24 + saltSize, ver + 24 + saltSize + hashSize);
  if (!salt.length || encHash.length < hashSize) return undefined;
  const h0 = sha1(concat(salt, utf16le(password)));
  // A 40-bit key is padded to 128 bits with zeros.
  const keyFor: KeyFor = (block) => {
    const k = sha1(concat(h0, u32le(block))).subarray(0, keyBits / 8);
    return keyBits === 40 ? concat(k, new Uint8Array(11)) : k;
  };
  const stream = rc4(keyFor(0), 16 + hashSize);
  const verifier = encVerifier.map((b, i) => b ^ (stream[i] as number));
  const hash = encHash.map((b, i) => b ^ (stream[16 + i] as number));
  return equal(sha1(verifier), hash) ? keyFor : undefined;
}

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
  const major = (body[2] as number) | ((body[3] as number) << 8);
  const minor = (body[4] as number) | ((body[5] as number) << 8);
  const derive = major === 1 && minor === 1 ? standardKey : minor === 2 ? cryptoApiKey : undefined;
  if (!derive) throw badInput('The workbook is encrypted in a way this engine does not read.');
  let keyFor: KeyFor | undefined;
  for (const p of passwords) {
    keyFor = derive(body, p);
    if (keyFor) break;
  }
  if (!keyFor) return undefined;
  const out = new Uint8Array(stream);
  const ov = new DataView(out.buffer);
  let block = -1;
  let keystream: Uint8Array = new Uint8Array(0);
  const xorAt = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const b = Math.floor(i / BLOCK);
      if (b !== block) {
        block = b;
        keystream = rc4((keyFor as KeyFor)(b), BLOCK);
      }
      out[i] = (out[i] as number) ^ (keystream[i % BLOCK] as number);
    }
  };
  for (let p = 0; p + 4 <= out.length; ) {
    const type = ov.getUint16(p, true);
    const size = ov.getUint16(p + 2, true);
    const start = p + 4;
    const end = Math.min(out.length, start + size);
    if (p > at && !PLAIN.has(type)) xorAt(type === BOUNDSHEET ? start + 4 : start, end);
    p = end;
  }
  ov.setUint16(at, SKIPPED, true);
  return out;
}
