/**
 * Synchronous SHA-1 and SHA-512 for the password key derivation of encrypted Office files, which
 * hashes 50,000–100,000 times in a row: one awaited WebCrypto digest per round costs seconds, these
 * cost milliseconds. Checked against WebCrypto in the tests. Bulk data goes through WebCrypto.
 */

const rotl32 = (x: number, n: number) => (x << n) | (x >>> (32 - n));

/**
 * Pads a message to whole blocks with the 0x80 marker and its bit length at the end: big-endian for
 * the SHA family, little-endian for MD5.
 */
function pad(msg: Uint8Array, block: number, lengthBytes: number, littleEndian = false): DataView {
  const total = Math.ceil((msg.length + 1 + lengthBytes) / block) * block;
  const buf = new Uint8Array(total);
  buf.set(msg);
  buf[msg.length] = 0x80;
  const view = new DataView(buf.buffer);
  const bits = msg.length * 8;
  const high = (bits / 0x100000000) | 0;
  view.setUint32(total - 8, littleEndian ? bits >>> 0 : high, littleEndian);
  view.setUint32(total - 4, littleEndian ? high : bits >>> 0, littleEndian);
  return view;
}

export function sha1(msg: Uint8Array): Uint8Array {
  const view = pad(msg, 64, 8);
  let h0 = 0x67452301;
  let h1 = 0xefcdab89;
  let h2 = 0x98badcfe;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0;
  const w = new Int32Array(80);
  for (let off = 0; off < view.byteLength; off += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getInt32(off + t * 4, false);
    for (let t = 16; t < 80; t++)
      w[t] = rotl32((w[t - 3] as number) ^ (w[t - 8] as number) ^ (w[t - 14] as number) ^ (w[t - 16] as number), 1);
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let t = 0; t < 80; t++) {
      let f: number;
      let k: number;
      if (t < 20) {
        f = (b & c) | (~b & d);
        k = 0x5a827999;
      } else if (t < 40) {
        f = b ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (t < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8f1bbcdc;
      } else {
        f = b ^ c ^ d;
        k = 0xca62c1d6;
      }
      const tmp = (rotl32(a, 5) + f + e + k + (w[t] as number)) | 0;
      e = d;
      d = c;
      c = rotl32(b, 30);
      b = a;
      a = tmp;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  const out = new DataView(new ArrayBuffer(20));
  [h0, h1, h2, h3, h4].forEach((h, i) => {
    out.setInt32(i * 4, h, false);
  });
  return new Uint8Array(out.buffer);
}

// SHA-512 constants are derived rather than listed: the first 64 bits of the fractional parts of the
// square roots (initial state) and cube roots (round constants) of the first primes (FIPS 180-4).
function primes(n: number): number[] {
  const out: number[] = [];
  for (let c = 2; out.length < n; c++) if (out.every((p) => c % p !== 0)) out.push(c);
  return out;
}
function iroot(x: bigint, k: bigint): bigint {
  // Newton's method from above on integers.
  let r = 1n << (BigInt(x.toString(2).length) / k + 1n);
  for (;;) {
    const next = ((k - 1n) * r + x / r ** (k - 1n)) / k;
    if (next >= r) return r;
    r = next;
  }
}
function fractionBits(k: 2 | 3, count: number): Int32Array {
  const out = new Int32Array(count * 2);
  const mask = (1n << 64n) - 1n;
  primes(count).forEach((p, i) => {
    const v = iroot(BigInt(p) << (64n * BigInt(k)), BigInt(k)) & mask;
    out[i * 2] = Number(v >> 32n) | 0;
    out[i * 2 + 1] = Number(v & 0xffffffffn) | 0;
  });
  return out;
}
// Message schedules, reused: hashing is synchronous, so one call never overlaps another.
const W_HI = new Int32Array(80);
const W_LO = new Int32Array(80);
let K512: Int32Array | undefined;
let H512: Int32Array | undefined;

export function sha512(msg: Uint8Array): Uint8Array {
  K512 ??= fractionBits(3, 80);
  H512 ??= fractionBits(2, 8);
  const K = K512;
  const view = pad(msg, 128, 16);
  const h = Int32Array.from(H512);
  const wh = W_HI;
  const wl = W_LO;
  for (let off = 0; off < view.byteLength; off += 128) {
    for (let t = 0; t < 16; t++) {
      wh[t] = view.getInt32(off + t * 8, false);
      wl[t] = view.getInt32(off + t * 8 + 4, false);
    }
    for (let t = 16; t < 80; t++) {
      // σ0 = rotr1 ^ rotr8 ^ shr7 of w[t-15]; σ1 = rotr19 ^ rotr61 ^ shr6 of w[t-2].
      let xh = wh[t - 15] as number;
      let xl = wl[t - 15] as number;
      const s0h = ((xh >>> 1) | (xl << 31)) ^ ((xh >>> 8) | (xl << 24)) ^ (xh >>> 7);
      const s0l = ((xl >>> 1) | (xh << 31)) ^ ((xl >>> 8) | (xh << 24)) ^ ((xl >>> 7) | (xh << 25));
      xh = wh[t - 2] as number;
      xl = wl[t - 2] as number;
      const s1h = ((xh >>> 19) | (xl << 13)) ^ ((xl >>> 29) | (xh << 3)) ^ (xh >>> 6);
      const s1l = ((xl >>> 19) | (xh << 13)) ^ ((xh >>> 29) | (xl << 3)) ^ ((xl >>> 6) | (xh << 26));
      const lo = (s0l >>> 0) + (s1l >>> 0) + ((wl[t - 16] as number) >>> 0) + ((wl[t - 7] as number) >>> 0);
      wl[t] = lo | 0;
      wh[t] = (s0h + s1h + (wh[t - 16] as number) + (wh[t - 7] as number) + ((lo / 0x100000000) | 0)) | 0;
    }
    let ah = h[0] as number;
    let al = h[1] as number;
    let bh = h[2] as number;
    let bl = h[3] as number;
    let ch = h[4] as number;
    let cl = h[5] as number;
    let dh = h[6] as number;
    let dl = h[7] as number;
    let eh = h[8] as number;
    let el = h[9] as number;
    let fh = h[10] as number;
    let fl = h[11] as number;
    let gh = h[12] as number;
    let gl = h[13] as number;
    let hh = h[14] as number;
    let hl = h[15] as number;
    for (let t = 0; t < 80; t++) {
      // Σ1(e) = rotr14 ^ rotr18 ^ rotr41; Ch(e, f, g); Σ0(a) = rotr28 ^ rotr34 ^ rotr39; Maj(a, b, c).
      const S1h = ((eh >>> 14) | (el << 18)) ^ ((eh >>> 18) | (el << 14)) ^ ((el >>> 9) | (eh << 23));
      const S1l = ((el >>> 14) | (eh << 18)) ^ ((el >>> 18) | (eh << 14)) ^ ((eh >>> 9) | (el << 23));
      const chh = (eh & fh) ^ (~eh & gh);
      const chl = (el & fl) ^ (~el & gl);
      const t1l = (hl >>> 0) + (S1l >>> 0) + (chl >>> 0) + ((K[t * 2 + 1] as number) >>> 0) + ((wl[t] as number) >>> 0);
      const t1h = (hh + S1h + chh + (K[t * 2] as number) + (wh[t] as number) + ((t1l / 0x100000000) | 0)) | 0;
      const S0h = ((ah >>> 28) | (al << 4)) ^ ((al >>> 2) | (ah << 30)) ^ ((al >>> 7) | (ah << 25));
      const S0l = ((al >>> 28) | (ah << 4)) ^ ((ah >>> 2) | (al << 30)) ^ ((ah >>> 7) | (al << 25));
      const mjh = (ah & bh) ^ (ah & ch) ^ (bh & ch);
      const mjl = (al & bl) ^ (al & cl) ^ (bl & cl);
      const t2l = (S0l >>> 0) + (mjl >>> 0);
      const t2h = (S0h + mjh + ((t2l / 0x100000000) | 0)) | 0;
      hh = gh;
      hl = gl;
      gh = fh;
      gl = fl;
      fh = eh;
      fl = el;
      const el2 = (dl >>> 0) + (t1l >>> 0);
      eh = (dh + t1h + ((el2 / 0x100000000) | 0)) | 0;
      el = el2 | 0;
      dh = ch;
      dl = cl;
      ch = bh;
      cl = bl;
      bh = ah;
      bl = al;
      const al2 = (t1l >>> 0) + (t2l >>> 0);
      ah = (t1h + t2h + ((al2 / 0x100000000) | 0)) | 0;
      al = al2 | 0;
    }
    const add = (i: number, xh: number, xl: number) => {
      const lo = ((h[i + 1] as number) >>> 0) + (xl >>> 0);
      h[i] = ((h[i] as number) + xh + ((lo / 0x100000000) | 0)) | 0;
      h[i + 1] = lo | 0;
    };
    add(0, ah, al);
    add(2, bh, bl);
    add(4, ch, cl);
    add(6, dh, dl);
    add(8, eh, el);
    add(10, fh, fl);
    add(12, gh, gl);
    add(14, hh, hl);
  }
  const out = new DataView(new ArrayBuffer(64));
  for (let i = 0; i < 16; i++) out.setInt32(i * 4, h[i] as number, false);
  return new Uint8Array(out.buffer);
}

// MD5 (RFC 1321): only for the RC4 key derivation of encrypted Excel 97–2003 workbooks.
let MD5_K: Int32Array | undefined;
const MD5_S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];

export function md5(msg: Uint8Array): Uint8Array {
  // The round constants are floor(|sin(i + 1)| · 2^32).
  MD5_K ??= Int32Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 0x100000000) | 0);
  const K = MD5_K;
  const view = pad(msg, 64, 8, true);
  const total = view.byteLength;
  let a0 = 0x67452301;
  let b0 = 0xefcdab89 | 0;
  let c0 = 0x98badcfe | 0;
  let d0 = 0x10325476;
  const m = new Int32Array(16);
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) m[i] = view.getInt32(off + i * 4, true);
    let a = a0;
    let b = b0;
    let c = c0;
    let d = d0;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) & 15;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) & 15;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) & 15;
      }
      const s = MD5_S[(i >> 4) * 4 + (i & 3)] as number;
      const sum = (a + f + (K[i] as number) + (m[g] as number)) | 0;
      a = d;
      d = c;
      c = b;
      b = (b + rotl32(sum, s)) | 0;
    }
    a0 = (a0 + a) | 0;
    b0 = (b0 + b) | 0;
    c0 = (c0 + c) | 0;
    d0 = (d0 + d) | 0;
  }
  const out = new DataView(new ArrayBuffer(16));
  [a0, b0, c0, d0].forEach((v, i) => {
    out.setInt32(i * 4, v, true);
  });
  return new Uint8Array(out.buffer);
}
