/**
 * ZapfDingbats without a ToUnicode map: its codes are pictures (0x6C a black circle, 0x33 a check
 * mark), which PDFium reads through the font's built-in encoding and pdf.js's text layer gives as
 * the letters and digits of the codes. The map below is Unicode's own for the font (its Dingbats
 * block was laid out from it): most codes sit at a fixed offset into U+2700, the rest are listed.
 */
const MOVED: Record<number, number> = {
  37: 0x260e,
  42: 0x261b,
  43: 0x261e,
  72: 0x2605,
  108: 0x25cf,
  110: 0x25a0,
  115: 0x25b2,
  116: 0x25bc,
  117: 0x25c6,
  119: 0x25d7,
  168: 0x2663,
  169: 0x2666,
  170: 0x2665,
  171: 0x2660,
  213: 0x2192,
  214: 0x2194,
  215: 0x2195,
};

/** The character a ZapfDingbats code shows, or the code's own character where the font has none. */
function dingbat(code: number): number {
  const moved = MOVED[code];
  if (moved !== undefined) return moved;
  if (code >= 0x21 && code <= 0x7e) return 0x2700 + code - 0x20;
  if (code >= 0x80 && code <= 0x8d) return 0x2768 + code - 0x80;
  // Circled digits one to ten.
  if (code >= 0xac && code <= 0xb5) return 0x2460 + code - 0xac;
  if (code >= 0xa1 && code <= 0xfe) return 0x2761 + code - 0xa1;
  return code;
}

/** Text read as ZapfDingbats codes turned into the pictures they show; other characters are kept. */
export function dingbatsText(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += String.fromCharCode(dingbat(s.charCodeAt(i)));
  return out;
}

/** ITC Zapf Dingbats under its names (a subset prefix aside); other pictograph fonts code otherwise. */
export const isZapfDingbats = (name: string): boolean => /^(?:[A-Z]{6}\+)?(?:ITC)?(?:Zapf)?Dingbats$/i.test(name);

/**
 * Whether the file names a Dingbats font where it can be seen without decompressing (font
 * dictionaries mostly are): pdf.js names a page's fonts only with its operator list, which such
 * files then fetch for every page.
 */
export const mentionsDingbats = (bytes: Uint8Array): boolean => mentions(bytes, 'Dingbats');

/**
 * Whether `word` (ASCII) occurs in the file's bytes as stored, compressed streams unread: a native
 * search for its first letter keeps this a fraction of the time pdf.js takes to open the file.
 */
export function mentions(bytes: Uint8Array, word: string): boolean {
  const name = [...word].map((c) => c.charCodeAt(0));
  const first = name[0] as number;
  for (let i = bytes.indexOf(first); i >= 0 && i + name.length <= bytes.length; i = bytes.indexOf(first, i + 1)) {
    let k = 1;
    while (k < name.length && bytes[i + k] === name[k]) k++;
    if (k === name.length) return true;
  }
  return false;
}
