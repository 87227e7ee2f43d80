import { describe, expect, it } from 'vitest';
import { bomEncoding, decodeText, decodeWith, looksUtf8, normalizeLabel, sniffUtf16 } from '../../src/util/charset.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);
const utf16le = (s: string) => new Uint8Array(Buffer.from(s, 'utf16le'));
const utf16be = (s: string) => {
  const le = utf16le(s);
  for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1] as number, le[i] as number];
  return le;
};
/** windows-1252 bytes for the few non-ASCII characters used here. */
const cp1252Map: Record<string, number> = {
  é: 0xe9,
  è: 0xe8,
  ü: 0xfc,
  ö: 0xf6,
  ß: 0xdf,
  Ä: 0xc4,
  '€': 0x80,
  '“': 0x93,
  '”': 0x94,
};
const cp1252 = (s: string) => Uint8Array.from([...s], (ch) => cp1252Map[ch] ?? ch.charCodeAt(0));
/** 名前,年齢,住所 / 佐藤太郎,30,東京 in Shift-JIS. */
const SJIS = Uint8Array.from([
  0x96, 0xbc, 0x91, 0x4f, 0x2c, 0x94, 0x4e, 0x97, 0xee, 0x2c, 0x8f, 0x5a, 0x8f, 0x8a, 0x0d, 0x0a, 0x8d, 0xb2, 0x93,
  0xa1, 0x91, 0xbe, 0x98, 0x59, 0x2c, 0x33, 0x30, 0x2c, 0x93, 0x8c, 0x8b, 0x9e, 0x0d, 0x0a,
]);

describe('charset: byte-order marks', () => {
  it('recognizes the UTF-8, UTF-16LE and UTF-16BE marks and nothing else', () => {
    expect(bomEncoding(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toEqual({ encoding: 'utf-8', length: 3 });
    expect(bomEncoding(new Uint8Array([0xff, 0xfe, 0x41, 0]))).toEqual({ encoding: 'utf-16le', length: 2 });
    expect(bomEncoding(new Uint8Array([0xfe, 0xff, 0, 0x41]))).toEqual({ encoding: 'utf-16be', length: 2 });
    expect(bomEncoding(utf8('abc'))).toBeUndefined();
    expect(bomEncoding(new Uint8Array([0xef, 0xbb]))).toBeUndefined();
  });

  it('decodes by the mark and strips it', () => {
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('né')]))).toEqual({
      text: 'né',
      encoding: 'utf-8',
      by: 'bom',
    });
    expect(decodeText(utf16le('\ufeffZürich,東京'))).toEqual({ text: 'Zürich,東京', encoding: 'utf-16le', by: 'bom' });
    expect(decodeText(utf16be('\ufeffZürich,東京'))).toEqual({ text: 'Zürich,東京', encoding: 'utf-16be', by: 'bom' });
  });

  it('lets a mark win over a declared label', () => {
    expect(decodeText(utf16le('\ufeffabc'), 'iso-8859-1').encoding).toBe('utf-16le');
  });
});

describe('charset: UTF-16 without a mark', () => {
  it('sniffs little- and big-endian from the zero bytes of Latin text', () => {
    expect(sniffUtf16(utf16le('name,city\r\nAda,London\r\n'))).toBe('utf-16le');
    expect(sniffUtf16(utf16be('name,city\r\nAda,London\r\n'))).toBe('utf-16be');
    expect(sniffUtf16(utf8('name,city\r\nAda,London\r\n'))).toBeUndefined();
    expect(sniffUtf16(new Uint8Array([0x41, 0]))).toBeUndefined();
  });

  it('sniffs mostly-CJK text, whose only zero bytes sit under its ASCII, but not 16-bit binary', () => {
    const kanji = '名前,住所\r\n佐藤太郎,東京都千代田区丸の内\r\n三木英子,大阪府大阪市北区梅田\r\n';
    expect(decodeText(utf16le(kanji))).toEqual({ text: kanji, encoding: 'utf-16le', by: 'sniffed' });
    expect(decodeText(utf16be(kanji))).toEqual({ text: kanji, encoding: 'utf-16be', by: 'sniffed' });
    const numbers = new Uint8Array(new Uint16Array([0x4e00, 0x0100, 0x5000, 0x0300, 0x6000, 0x0500, 0x7000]).buffer);
    expect(sniffUtf16(numbers)).toBeUndefined();
  });

  it('decodes them', () => {
    expect(decodeText(utf16le('a,b\nZürich,1\n'))).toEqual({
      text: 'a,b\nZürich,1\n',
      encoding: 'utf-16le',
      by: 'sniffed',
    });
    expect(decodeText(utf16be('a,b\nZürich,1\n'))).toEqual({
      text: 'a,b\nZürich,1\n',
      encoding: 'utf-16be',
      by: 'sniffed',
    });
  });

  it('ignores a declared UTF-16 label on ASCII-compatible bytes', () => {
    expect(decodeText(utf8('héllo'), 'utf-16').encoding).toBe('utf-8');
  });
});

describe('charset: UTF-8 validity', () => {
  it('accepts valid UTF-8 and a multi-byte sequence cut at the scan limit', () => {
    expect(looksUtf8(utf8('plain ascii'))).toBe(true);
    expect(looksUtf8(utf8('né 東京 😀'))).toBe(true);
    const bytes = utf8('aé');
    expect(looksUtf8(bytes, 2)).toBe(true);
  });

  it('rejects stray continuation bytes, overlong leads and a truncated end', () => {
    expect(looksUtf8(new Uint8Array([0x61, 0x80]))).toBe(false);
    expect(looksUtf8(new Uint8Array([0xc0, 0xaf]))).toBe(false);
    expect(looksUtf8(new Uint8Array([0xe6, 0x9d]))).toBe(false);
    expect(looksUtf8(cp1252('café'))).toBe(false);
  });

  it('keeps UTF-8 with a cut last character or a stray legacy byte as UTF-8', () => {
    const cut = utf8('Zürich,Genève,Köln,Malmö,東');
    expect(decodeText(cut.subarray(0, cut.length - 1))).toMatchObject({ encoding: 'utf-8' });
    expect(decodeText(cut.subarray(0, cut.length - 1)).text).toMatch(/^Zürich,Genève,Köln,Malmö,/);
    const stray = new Uint8Array([...utf8('Zürich,Genève,Köln,Malmö;'), 0xe9, 0x2c]);
    expect(decodeText(stray).text).toBe('Zürich,Genève,Köln,Malmö;\ufffd,');
    // One cut character and nothing else to go on: not enough evidence for UTF-8.
    expect(looksUtf8(utf8('é').subarray(0, 1))).toBe(false);
  });

  it('decodes valid UTF-8 as UTF-8', () => {
    expect(decodeText(utf8('名前,年齢\nné,1\n'))).toEqual({
      text: '名前,年齢\nné,1\n',
      encoding: 'utf-8',
      by: 'sniffed',
    });
  });
});

describe('charset: legacy code pages', () => {
  it('recognizes Shift-JIS (including the cp932 extension 髙 of markitdown’s sample)', () => {
    expect(decodeText(SJIS)).toEqual({
      text: '名前,年齢,住所\r\n佐藤太郎,30,東京\r\n',
      encoding: 'shift_jis',
      by: 'sniffed',
    });
    expect(decodeText(new Uint8Array([0xfb, 0xfc, 0x8b, 0xb4, 0x2c, 0x31])).text).toBe('髙橋,1');
  });

  it('keeps Latin text in windows-1252 even where its bytes happen to be valid Shift-JIS', () => {
    for (const s of ['crème brûlée,Straße', 'Zürich;Größe;Ä', '“Quoted” and naïve résumé', 'Prix;Qté\nCafé;3,50 €']) {
      const bytes = cp1252(s.replace('û', 'u').replace('ï', 'i'));
      expect(decodeText(bytes).encoding, s).toBe('windows-1252');
    }
  });

  it('maps the 0x80–0x9F row of windows-1252 (€, curly quotes), which Node decodes as Latin-1', () => {
    expect(decodeText(cp1252('Thé;3,50 €;“x”'))).toEqual({
      text: 'Thé;3,50 €;“x”',
      encoding: 'windows-1252',
      by: 'sniffed',
    });
    expect(decodeWith('windows-1252', new Uint8Array([0x80, 0x81, 0x9f, 0xe9]))).toBe('€\u0081Ÿé');
  });

  it('follows a declared label, normalized to its WHATWG name', () => {
    expect(normalizeLabel(' Latin1 ')).toBe('windows-1252');
    expect(normalizeLabel('sjis')).toBe('shift_jis');
    expect(normalizeLabel('no-such-charset')).toBeUndefined();
    expect(normalizeLabel(undefined)).toBeUndefined();
    expect(decodeText(cp1252('Straße €'), 'cp1252')).toEqual({
      text: 'Straße €',
      encoding: 'windows-1252',
      by: 'declared',
    });
  });
});

describe('charset: a declaration the bytes contradict', () => {
  it('keeps a declaration the bytes agree with', () => {
    expect(decodeText(utf8('Zürich'), 'utf-8')).toEqual({ text: 'Zürich', encoding: 'utf-8', by: 'declared' });
    expect(decodeText(new Uint8Array([0x5a, 0xfc, 0x72]), 'latin1')).toEqual({
      text: 'Zür',
      encoding: 'windows-1252',
      by: 'declared',
    });
    // Plain ASCII proves nothing either way.
    expect(decodeText(utf8('abc'), 'shift_jis').by).toBe('declared');
  });
  it('sniffs when a UTF-8 label sits on legacy bytes, or a legacy label on UTF-8', () => {
    expect(decodeText(new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80]), 'utf-8')).toEqual({
      text: 'Café €',
      encoding: 'windows-1252',
      by: 'sniffed',
      contradicts: 'utf-8',
    });
    expect(decodeText(utf8('Grüße – 20 °C'), 'iso-8859-1')).toEqual({
      text: 'Grüße – 20 °C',
      encoding: 'utf-8',
      by: 'sniffed',
      contradicts: 'windows-1252',
    });
    expect(decodeText(utf8('会議のお知らせ'), 'shift_jis')).toMatchObject({
      text: '会議のお知らせ',
      encoding: 'utf-8',
    });
  });
});
