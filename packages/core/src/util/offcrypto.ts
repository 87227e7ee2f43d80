/**
 * Password-encrypted OOXML ([MS-OFFCRYPTO] 2.3.4): a compound file holding EncryptionInfo and
 * EncryptedPackage, the latter the AES-encrypted zip. Decrypted with WebCrypto only, so it runs the
 * same in browsers. Agile encryption (Office 2010 and later) and standard encryption (Office 2007)
 * are read; Excel's default write-protection password "VelvetSweatshop" is tried when the caller
 * gives none, since Excel itself opens such files without asking.
 */
import { openCfb } from '../adapters/cfb/index.ts';
import { badInput, DocmillError, passwordError, throwIfAborted } from '../errors.ts';
import { concatBytes as concat, equalBytes as equal, u32le, utf16le } from './bytes.ts';
import { sha1, sha512 } from './sha.ts';
import { nextTask } from './task.ts';
import { aesCbc, digest, fromBase64, type Hash } from './webcrypto.ts';
import { attr, kid, kids, parseXml } from './xml.ts';

export const DEFAULT_PASSWORD = 'VelvetSweatshop';

const SYNC: Partial<Record<Hash, (b: Uint8Array) => Uint8Array>> = { 'SHA-1': sha1, 'SHA-512': sha512 };

/**
 * H(salt + password), then `spins` rounds of H(i + previous) ([MS-OFFCRYPTO] 2.3.4.7, 2.3.4.11).
 * SHA-1 and SHA-512 (what Office writes) are hashed synchronously: 100,000 awaited digests take seconds.
 */
async function spinHash(hash: Hash, salt: Uint8Array, password: string, spins: number, signal?: AbortSignal) {
  let h = await digest(hash, salt, utf16le(password));
  const sync = SYNC[hash];
  const round = new Uint8Array(4 + h.length);
  for (let i = 0; i < spins; i++) {
    // The synchronous rounds give timers a turn now and then: without one the timeout could not fire
    // before all rounds were done (the cap of 10 million takes most of a minute).
    if ((i & 0x3fff) === 0) {
      if (i) await nextTask();
      throwIfAborted(signal);
    }
    if (sync) {
      round.set(u32le(i));
      round.set(h, 4);
      h = sync(round);
    } else h = await digest(hash, u32le(i), h);
  }
  return h;
}

/** Sizes a derived hash to a key or IV: truncated, or padded with 0x36. */
function fit(bytes: Uint8Array, size: number): Uint8Array {
  if (bytes.length >= size) return bytes.slice(0, size);
  const out = new Uint8Array(size).fill(0x36);
  out.set(bytes);
  return out;
}

/** AES-ECB from CBC with a zero IV: each plaintext block is then un-chained with the previous ciphertext. */
async function aesEcb(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const out = await aesCbc(key, new Uint8Array(16), data);
  for (let i = out.length - 1; i >= 16; i--) out[i] = (out[i] as number) ^ (data[i - 16] as number);
  return out;
}

const HASHES: Record<string, Hash> = {
  SHA1: 'SHA-1',
  'SHA-1': 'SHA-1',
  SHA256: 'SHA-256',
  SHA384: 'SHA-384',
  SHA512: 'SHA-512',
};
const BLOCK = {
  verifierInput: Uint8Array.of(0xfe, 0xa7, 0xd2, 0x76, 0x3b, 0x4b, 0x9e, 0x79),
  verifierValue: Uint8Array.of(0xd7, 0xaa, 0x0f, 0x6d, 0x30, 0x61, 0x34, 0x4e),
  keyValue: Uint8Array.of(0x14, 0x6e, 0x0b, 0xe7, 0xab, 0xac, 0xd0, 0xd6),
};
/** Agile packages are encrypted in segments of this size, each with its own IV. */
const SEGMENT = 4096;

/** The package's own size, from the 8-byte prefix of EncryptedPackage. */
const packageSize = (pkg: Uint8Array) => {
  const v = new DataView(pkg.buffer, pkg.byteOffset, pkg.byteLength);
  return v.getUint32(0, true) + v.getUint32(4, true) * 2 ** 32;
};

async function agile(info: Uint8Array, pkg: Uint8Array, password: string, signal?: AbortSignal) {
  const xml = parseXml(new TextDecoder().decode(info.subarray(8)), { maxXmlBytes: 1 << 20, maxXmlDepth: 16 });
  const keyData = kid(xml, 'keyData');
  const encryptor = kids(kid(xml, 'keyEncryptors'), 'keyEncryptor')
    .map((k) => kid(k, 'encryptedKey'))
    .find((k) => k && attr(k, 'spinCount') !== undefined);
  if (!keyData || !encryptor) throw badInput('The document is encrypted in a way this engine does not read.');
  const need = (el: typeof keyData, name: string) => {
    const v = attr(el, name);
    if (v === undefined) throw badInput(`The document's encryption header lacks ${name}.`);
    return v;
  };
  const hash = HASHES[need(encryptor, 'hashAlgorithm').toUpperCase()];
  const dataHash = HASHES[need(keyData, 'hashAlgorithm').toUpperCase()];
  if (!hash || !dataHash || need(keyData, 'cipherAlgorithm') !== 'AES' || !/CBC/.test(need(keyData, 'cipherChaining')))
    throw badInput('The document is encrypted with an algorithm this engine does not read.');
  const spins = Number(need(encryptor, 'spinCount'));
  // Word and Excel use 100,000; far more would only be a way to burn the caller's time.
  if (!Number.isInteger(spins) || spins < 0 || spins > 10_000_000)
    throw badInput('The encryption spin count is invalid.');
  const keyBytes = Number(need(encryptor, 'keyBits')) / 8;
  const blockSize = Number(need(encryptor, 'blockSize'));
  const salt = fromBase64(need(encryptor, 'saltValue'));
  const h = await spinHash(hash, salt, password, spins, signal);
  const keyFor = async (block: Uint8Array) => fit(await digest(hash, h, block), keyBytes);
  const iv = fit(salt, blockSize);
  const verifierInput = await aesCbc(
    await keyFor(BLOCK.verifierInput),
    iv,
    fromBase64(need(encryptor, 'encryptedVerifierHashInput')),
  );
  const verifierHash = await aesCbc(
    await keyFor(BLOCK.verifierValue),
    iv,
    fromBase64(need(encryptor, 'encryptedVerifierHashValue')),
  );
  const expected = await digest(hash, verifierInput.subarray(0, salt.length));
  if (!equal(expected, verifierHash.subarray(0, expected.length))) return undefined;
  const secret = (
    await aesCbc(await keyFor(BLOCK.keyValue), iv, fromBase64(need(encryptor, 'encryptedKeyValue')))
  ).subarray(0, keyBytes);
  const dataSalt = fromBase64(need(keyData, 'saltValue'));
  const dataBlock = Number(need(keyData, 'blockSize'));
  const size = packageSize(pkg);
  const body = pkg.subarray(8);
  const out = new Uint8Array(Math.min(size, body.length));
  for (let i = 0, at = 0; at < out.length; i++, at += SEGMENT) {
    throwIfAborted(signal);
    const segIv = fit(await digest(dataHash, dataSalt, u32le(i)), dataBlock);
    const plain = await aesCbc(secret, segIv, body.subarray(at, at + SEGMENT));
    out.set(plain.subarray(0, Math.min(plain.length, out.length - at)), at);
  }
  return out;
}

async function standard(info: Uint8Array, pkg: Uint8Array, password: string, signal?: AbortSignal) {
  const v = new DataView(info.buffer, info.byteOffset, info.byteLength);
  const headerSize = v.getUint32(8, true);
  const header = 12;
  const algId = v.getUint32(header + 8, true);
  const keyBits = v.getUint32(header + 16, true);
  // AES-128/192/256 with SHA-1 is what Office writes; RC4 CryptoAPI packages are not read.
  if (algId < 0x660e || algId > 0x6610 || ![128, 192, 256].includes(keyBits))
    throw badInput('The document is encrypted with an algorithm this engine does not read.');
  const ver = header + headerSize;
  const saltSize = v.getUint32(ver, true);
  const salt = info.subarray(ver + 4, ver + 4 + saltSize);
  const encVerifier = info.subarray(ver + 4 + saltSize, ver + 20 + saltSize);
  const hashSize = v.getUint32(ver + 20 + saltSize, true);
  const encVerifierHash = info.subarray(ver + 24 + saltSize, ver + 24 + saltSize + 32);
  const h = await spinHash('SHA-1', salt, password, 50_000, signal);
  const final = await digest('SHA-1', h, u32le(0));
  // [MS-OFFCRYPTO] 2.3.4.7: the key comes from two SHA-1s of the hash XOR-ed into 0x36/0x5C blocks.
  const xored = (fill: number) => {
    const buf = new Uint8Array(64).fill(fill);
    for (let i = 0; i < final.length; i++) buf[i] = (buf[i] as number) ^ (final[i] as number);
    return buf;
  };
  const key = concat(await digest('SHA-1', xored(0x36)), await digest('SHA-1', xored(0x5c))).slice(0, keyBits / 8);
  const verifier = await aesEcb(key, encVerifier);
  const verifierHash = await aesEcb(key, encVerifierHash);
  if (!equal(await digest('SHA-1', verifier), verifierHash.subarray(0, hashSize))) return undefined;
  const size = packageSize(pkg);
  const plain = await aesEcb(key, pkg.subarray(8));
  return plain.subarray(0, Math.min(size, plain.length));
}

const isCfb = (b: Uint8Array) => b[0] === 0xd0 && b[1] === 0xcf && b[2] === 0x11 && b[3] === 0xe0;

/**
 * The decrypted package of an encrypted OOXML file, trying the caller's password and then Excel's
 * default; the input itself when it is not one. A wrong or missing password is a 400 that says which.
 */
export async function decryptOoxml(
  bytes: Uint8Array,
  password: string | undefined,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  if (!isCfb(bytes)) return bytes;
  let cfb: ReturnType<typeof openCfb>;
  try {
    cfb = openCfb(bytes, signal);
  } catch {
    return bytes;
  }
  const info = cfb.stream('EncryptionInfo');
  const pkg = cfb.stream('EncryptedPackage');
  if (!info || !pkg || info.length < 12 || pkg.length < 8) return bytes;
  const major = info[0] as number;
  const minor = info[2] as number;
  const read = minor === 4 && major === 4 ? agile : minor === 2 && major >= 2 && major <= 4 ? standard : undefined;
  if (!read) throw badInput('The document is encrypted in a way this engine does not read (extensible encryption).');
  for (const candidate of password === undefined ? [DEFAULT_PASSWORD] : [password, DEFAULT_PASSWORD]) {
    let plain: Uint8Array | undefined;
    try {
      plain = await read(info, pkg, candidate, signal);
    } catch (err) {
      // Offsets and sizes in the header are the file's word: one past its end (a RangeError), a key
      // size WebCrypto refuses, base64 that is not, all mean a damaged header, not an engine fault.
      if (err instanceof DocmillError || signal?.aborted) throw err;
      throw badInput('The document is encrypted and its encryption header is damaged.', err);
    }
    if (plain) return plain;
  }
  throw passwordError('The document', password);
}
