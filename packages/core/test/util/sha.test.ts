import { describe, expect, it } from 'vitest';
import { md5, sha1, sha512 } from '../../src/util/sha.ts';

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const webcrypto = async (name: string, b: Uint8Array) =>
  hex(new Uint8Array(await crypto.subtle.digest(name, b as Uint8Array<ArrayBuffer>)));

describe('synchronous SHA-1 and SHA-512 (password key derivation)', () => {
  it('match the published test vectors', () => {
    const abc = new TextEncoder().encode('abc');
    expect(hex(sha1(abc))).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(hex(sha512(abc))).toBe(
      'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    );
  });

  it('match WebCrypto on every length around the block boundaries', async () => {
    for (let n = 0; n < 300; n += 7) {
      const data = new Uint8Array(n).map((_, i) => (i * 131 + n) & 0xff);
      expect(hex(sha1(data))).toBe(await webcrypto('SHA-1', data));
      expect(hex(sha512(data))).toBe(await webcrypto('SHA-512', data));
    }
  });
});

describe('MD5 (RC4 key derivation of Excel 97–2003 workbooks)', () => {
  it('matches the RFC 1321 test suite', () => {
    const cases: [string, string][] = [
      ['', 'd41d8cd98f00b204e9800998ecf8427e'],
      ['abc', '900150983cd24fb0d6963f7d28e17f72'],
      ['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
      ['abcdefghijklmnopqrstuvwxyz', 'c3fcd3d76192e4007dfb496cca67e13b'],
      [
        '12345678901234567890123456789012345678901234567890123456789012345678901234567890',
        '57edf4a22be3c955ac49da2e2107b67a',
      ],
    ];
    for (const [text, digest] of cases) expect(hex(md5(new TextEncoder().encode(text)))).toBe(digest);
  });
});
