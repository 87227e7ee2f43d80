import { describe, expect, it } from 'vitest';
import { blowfishCfbDecrypt, blowfishEncryptBlock } from '../../src/util/blowfish.ts';

const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
const toHex = (b: Uint8Array) => [...b].map((v) => v.toString(16).padStart(2, '0')).join('');

describe('Blowfish', () => {
  it('gives the published known answers (Schneier’s test vectors)', () => {
    expect(toHex(blowfishEncryptBlock(hex('0000000000000000'), hex('0000000000000000')))).toBe('4ef997456198dd78');
    expect(toHex(blowfishEncryptBlock(hex('ffffffffffffffff'), hex('ffffffffffffffff')))).toBe('51866fd5b85ecb8a');
    expect(toHex(blowfishEncryptBlock(hex('0123456789abcdef'), hex('1111111111111111')))).toBe('61f9c3802281b096');
  });

  it('decrypts CFB-64 as OpenSSL encrypts it, a last partial block included', () => {
    // printf 'abcdefghijklmnopqrstuvwxyz' | openssl enc -bf-cfb -K 0123456789abcdeff0e1d2c3b4a59687 \
    //   -iv fedcba9876543210 -provider legacy -provider default | xxd -p
    const key = hex('0123456789abcdeff0e1d2c3b4a59687');
    const plain = blowfishCfbDecrypt(
      key,
      hex('fedcba9876543210'),
      hex('b16642f2d4756f823d7229822e0b96971b93aa32437c47b97882'),
    );
    expect(new TextDecoder().decode(plain)).toBe('abcdefghijklmnopqrstuvwxyz');
    // printf '\xfe\xdc\xba\x98\x76\x54\x32\x10' | openssl enc -bf-ecb -nopad -K 0123…9687 …
    expect(toHex(blowfishEncryptBlock(key, hex('fedcba9876543210')))).toBe('d0042196b11308ea');
  });

  it('refuses keys and IVs of impossible sizes', () => {
    expect(() => blowfishEncryptBlock(new Uint8Array(3), new Uint8Array(8))).toThrow(RangeError);
    expect(() => blowfishCfbDecrypt(new Uint8Array(16), new Uint8Array(7), new Uint8Array(8))).toThrow(RangeError);
  });
});
