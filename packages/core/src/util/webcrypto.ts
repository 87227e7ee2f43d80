/**
 * The WebCrypto calls the encrypted formats share (OOXML, OpenDocument): digests, PBKDF2 and AES-CBC
 * without padding. WebCrypto runs the same in Node and in browsers, so core needs no Node crypto.
 */
import { DocmillError } from '../errors.ts';
import { concatBytes as concat } from './bytes.ts';

export type Hash = 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512';

const subtle = () => {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new DocmillError(500, 'UNKNOWN_ERROR', 'WebCrypto (crypto.subtle) is not available here.');
  return s;
};

const buffer = (b: Uint8Array) => b as Uint8Array<ArrayBuffer>;

export const fromBase64 = (s: string): Uint8Array => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

export async function digest(hash: Hash, ...parts: Uint8Array[]): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest(hash, buffer(concat(...parts))));
}

/** PBKDF2 with HMAC over `hash`: `bytes` of key from a secret and a salt. */
export async function pbkdf2(
  hash: Hash,
  secret: Uint8Array,
  salt: Uint8Array,
  iterations: number,
  bytes: number,
): Promise<Uint8Array> {
  const key = await subtle().importKey('raw', buffer(secret), 'PBKDF2', false, ['deriveBits']);
  const bits = await subtle().deriveBits({ name: 'PBKDF2', hash, salt: buffer(salt), iterations }, key, bytes * 8);
  return new Uint8Array(bits);
}

/**
 * AES-CBC decryption of whole blocks without padding. WebCrypto insists on PKCS#7 padding, so one
 * block is appended that decrypts to a full padding block: E(padding XOR last ciphertext block).
 */
export async function aesCbc(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const usable = data.subarray(0, data.length - (data.length % 16));
  if (!usable.length) return new Uint8Array(0);
  const k = await subtle().importKey('raw', buffer(key), 'AES-CBC', false, ['encrypt', 'decrypt']);
  const last = usable.subarray(usable.length - 16);
  const pad = new Uint8Array(16).fill(16);
  const tail = new Uint8Array(await subtle().encrypt({ name: 'AES-CBC', iv: buffer(last) }, k, pad)).subarray(0, 16);
  const plain = await subtle().decrypt({ name: 'AES-CBC', iv: buffer(iv) }, k, buffer(concat(usable, tail)));
  return new Uint8Array(plain);
}
