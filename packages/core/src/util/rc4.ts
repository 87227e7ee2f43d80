/**
 * RC4 password encryption of Office 97–2003 binary files ([MS-OFFCRYPTO] 2.3.5 and 2.3.6), one copy
 * for every format that uses it: the .xls FilePass record and the .doc Table stream start with the
 * same encryption header. Two versions exist: RC4 (Office 97/2000, version 1.1, MD5 keys cut to 40
 * bits) and RC4 CryptoAPI (Office 2002/2003, version 2–4.2, SHA-1 keys). Either way the data is
 * encrypted in fixed-size blocks, each with its own key derived from the block number.
 */
import { concatBytes as concat, equalBytes as equal, u32le, utf16le } from './bytes.ts';
import { md5, sha1 } from './sha.ts';

/** The RC4 key of one block. */
export type KeyFor = (block: number) => Uint8Array;

export function rc4(key: Uint8Array, length: number): Uint8Array {
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

/** Which RC4 version an encryption header (starting at its Version field) announces. */
export function rc4Version(info: Uint8Array): 'rc4' | 'cryptoapi' | undefined {
  if (info.length < 4) return undefined;
  const major = (info[0] as number) | ((info[1] as number) << 8);
  const minor = (info[2] as number) | ((info[3] as number) << 8);
  if (major === 1 && minor === 1) return 'rc4';
  if (minor === 2 && major >= 2 && major <= 4) return 'cryptoapi';
  return undefined;
}

/** Office 97/2000 RC4 (2.3.6.2): MD5 of the password, salted 16 times, cut to 40 bits. */
function standardKey(info: Uint8Array, password: string): KeyFor | undefined {
  if (info.length < 52) return undefined;
  const salt = info.subarray(4, 20);
  const h0 = md5(utf16le(password)).subarray(0, 5);
  const spread = new Uint8Array(21 * 16);
  for (let i = 0; i < 16; i++) spread.set(concat(h0, salt), i * 21);
  const truncated = md5(spread).subarray(0, 5);
  const keyFor: KeyFor = (block) => md5(concat(truncated, u32le(block)));
  const stream = rc4(keyFor(0), 32);
  const verifier = info.subarray(20, 36).map((b, i) => b ^ (stream[i] as number));
  const hash = info.subarray(36, 52).map((b, i) => b ^ (stream[16 + i] as number));
  return equal(md5(verifier), hash) ? keyFor : undefined;
}

/** Office 2002/2003 RC4 CryptoAPI block keys (2.3.5.2): SHA-1 of salt and password, then of that and the block. */
export function cryptoApiKeyFor(salt: Uint8Array, password: string, keyBits: number): KeyFor {
  const h0 = sha1(concat(salt, utf16le(password)));
  // A 40-bit key is padded to 128 bits with zeros.
  return (block) => {
    const k = sha1(concat(h0, u32le(block))).subarray(0, keyBits / 8);
    return keyBits === 40 ? concat(k, new Uint8Array(11)) : k;
  };
}

/** The CryptoAPI header's verifier check for `password`. */
function cryptoApiKey(info: Uint8Array, password: string): KeyFor | undefined {
  const v = new DataView(info.buffer, info.byteOffset, info.byteLength);
  const header = 12;
  if (header + 20 > info.length) return undefined;
  const headerSize = v.getUint32(8, true);
  const keyBits = v.getUint32(header + 16, true) || 40;
  const ver = header + headerSize;
  if (ver + 4 > info.length || keyBits % 8 !== 0 || keyBits > 160) return undefined;
  const saltSize = v.getUint32(ver, true);
  const salt = info.subarray(ver + 4, ver + 4 + saltSize);
  const encVerifier = info.subarray(ver + 4 + saltSize, ver + 20 + saltSize);
  if (ver + 24 + saltSize > info.length) return undefined;
  const hashSize = v.getUint32(ver + 20 + saltSize, true);
  const encHash = info.subarray(ver + 24 + saltSize, ver + 24 + saltSize + hashSize);
  if (!salt.length || encVerifier.length < 16 || !hashSize || encHash.length < hashSize) return undefined;
  const keyFor = cryptoApiKeyFor(salt, password, keyBits);
  const stream = rc4(keyFor(0), 16 + hashSize);
  const verifier = encVerifier.map((b, i) => b ^ (stream[i] as number));
  const hash = encHash.map((b, i) => b ^ (stream[16 + i] as number));
  return equal(sha1(verifier), hash) ? keyFor : undefined;
}

/** The block keys of the first password that opens the header; undefined when none does. */
export function rc4Keys(info: Uint8Array, passwords: readonly string[]): KeyFor | undefined {
  const version = rc4Version(info);
  if (!version) return undefined;
  for (const p of passwords) {
    const keyFor = version === 'rc4' ? standardKey(info, p) : cryptoApiKey(info, p);
    if (keyFor) return keyFor;
  }
  return undefined;
}

/**
 * A decryptor that XORs byte ranges of a stream in place with the keystream of their absolute
 * offsets, rekeyed every `blockSize` bytes (Excel 1024, Word 512). Ranges that skip plain parts
 * still use up keystream, as the formats require.
 */
export function rc4Decryptor(keyFor: KeyFor, blockSize: number): (data: Uint8Array, from: number, to: number) => void {
  let block = -1;
  let keystream: Uint8Array = new Uint8Array(0);
  return (data, from, to) => {
    for (let i = from; i < to; i++) {
      const b = Math.floor(i / blockSize);
      if (b !== block) {
        block = b;
        keystream = rc4(keyFor(b), blockSize);
      }
      data[i] = (data[i] as number) ^ (keystream[i % blockSize] as number);
    }
  };
}
