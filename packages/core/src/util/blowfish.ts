/**
 * Blowfish (Schneier, 1993) in CFB mode with 64-bit feedback, the cipher of OpenDocument files
 * encrypted by OpenOffice.org 1–3 and by LibreOffice when saving ODF 1.0/1.1. WebCrypto has no
 * Blowfish, so it is written out here. Its initial P-array and S-boxes are the hexadecimal digits of
 * π after the point; they are computed once, on first use, instead of being carried as a table.
 */

/** 18 P-array words and 4 × 256 S-box words: 8,336 hex digits of π. */
const WORDS = 18 + 4 * 256;

let piWords: Uint32Array | undefined;

/** arctan(1/x) scaled by 2^bits (the alternating series, in integers). */
function arctanInverse(x: bigint, bits: bigint): bigint {
  const x2 = x * x;
  let term = (1n << bits) / x;
  let sum = 0n;
  for (let k = 0n; term !== 0n; k++) {
    const part = term / (2n * k + 1n);
    sum = k % 2n === 0n ? sum + part : sum - part;
    term /= x2;
  }
  return sum;
}

/** The first WORDS 32-bit words of π's fraction (Machin: π = 16·atan(1/5) − 4·atan(1/239)). */
function piFraction(): Uint32Array {
  if (piWords) return piWords;
  const guard = 64n;
  const bits = BigInt(WORDS * 32) + guard;
  const pi = 16n * arctanInverse(5n, bits) - 4n * arctanInverse(239n, bits);
  let frac = (pi & ((1n << bits) - 1n)) >> guard;
  const out = new Uint32Array(WORDS);
  for (let i = WORDS - 1; i >= 0; i--) {
    out[i] = Number(frac & 0xffffffffn);
    frac >>= 32n;
  }
  piWords = out;
  return out;
}

interface Schedule {
  p: Uint32Array;
  s: Uint32Array;
}

function encryptBlock(k: Schedule, l0: number, r0: number): [number, number] {
  const { p, s } = k;
  let l = l0;
  let r = r0;
  for (let i = 0; i < 16; i++) {
    l = (l ^ (p[i] as number)) >>> 0;
    const f =
      ((((s[l >>> 24] as number) + (s[256 + ((l >>> 16) & 0xff)] as number)) ^
        (s[512 + ((l >>> 8) & 0xff)] as number)) +
        (s[768 + (l & 0xff)] as number)) >>>
      0;
    r = (r ^ f) >>> 0;
    [l, r] = [r, l];
  }
  [l, r] = [r, l];
  r = (r ^ (p[16] as number)) >>> 0;
  l = (l ^ (p[17] as number)) >>> 0;
  return [l, r];
}

/** The key schedule of a 4–56 byte key. */
function schedule(key: Uint8Array): Schedule {
  if (key.length < 4 || key.length > 56) throw new RangeError(`Blowfish keys are 4–56 bytes, not ${key.length}.`);
  const pi = piFraction();
  const k: Schedule = { p: pi.slice(0, 18), s: pi.slice(18) };
  for (let i = 0, j = 0; i < 18; i++) {
    let w = 0;
    for (let b = 0; b < 4; b++, j++) w = (w << 8) | (key[j % key.length] as number);
    k.p[i] = ((k.p[i] as number) ^ w) >>> 0;
  }
  let l = 0;
  let r = 0;
  for (let i = 0; i < 18; i += 2) {
    [l, r] = encryptBlock(k, l, r);
    k.p[i] = l;
    k.p[i + 1] = r;
  }
  for (let i = 0; i < 1024; i += 2) {
    [l, r] = encryptBlock(k, l, r);
    k.s[i] = l;
    k.s[i + 1] = r;
  }
  return k;
}

const readBE = (b: Uint8Array, o: number): number =>
  (((b[o] as number) << 24) | ((b[o + 1] as number) << 16) | ((b[o + 2] as number) << 8) | (b[o + 3] as number)) >>> 0;

function writeBE(b: Uint8Array, o: number, v: number): void {
  b[o] = v >>> 24;
  b[o + 1] = (v >>> 16) & 0xff;
  b[o + 2] = (v >>> 8) & 0xff;
  b[o + 3] = v & 0xff;
}

/** One block in ECB mode (the building block; exposed for the known-answer tests). */
export function blowfishEncryptBlock(key: Uint8Array, block: Uint8Array): Uint8Array {
  const [l, r] = encryptBlock(schedule(key), readBE(block, 0), readBE(block, 4));
  const out = new Uint8Array(8);
  writeBE(out, 0, l);
  writeBE(out, 4, r);
  return out;
}

/** Decrypts Blowfish-CFB64 (8-byte feedback; a last partial block uses part of the keystream). */
export function blowfishCfbDecrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array {
  if (iv.length !== 8) throw new RangeError('A Blowfish IV is 8 bytes.');
  const k = schedule(key);
  const out = new Uint8Array(data.length);
  let fl = readBE(iv, 0);
  let fr = readBE(iv, 4);
  const stream = new Uint8Array(8);
  for (let o = 0; o < data.length; o += 8) {
    [fl, fr] = encryptBlock(k, fl, fr);
    writeBE(stream, 0, fl);
    writeBE(stream, 4, fr);
    const n = Math.min(8, data.length - o);
    for (let i = 0; i < n; i++) out[o + i] = (data[o + i] as number) ^ (stream[i] as number);
    // The ciphertext block is the next feedback.
    if (n === 8) {
      fl = readBE(data, o);
      fr = readBE(data, o + 4);
    }
  }
  return out;
}
