/**
 * Text decoding for formats that carry no reliable encoding of their own (HTML, CSV, plain text
 * parts). Order of evidence: byte-order mark, then an encoding the caller found declared in the
 * document, then what the bytes themselves look like. Uses only `TextDecoder`, so it runs in
 * browsers too (Node ships full ICU, which includes Shift-JIS and the Windows code pages).
 */

export interface Decoded {
  text: string;
  /** WHATWG encoding name actually used. */
  encoding: string;
  /** How the encoding was chosen, for warnings and tests. */
  by: 'bom' | 'declared' | 'sniffed';
}

const boms: Array<[number[], string]> = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xff, 0xfe], 'utf-16le'],
  [[0xfe, 0xff], 'utf-16be'],
];

export function bomEncoding(b: Uint8Array): { encoding: string; length: number } | undefined {
  for (const [sig, encoding] of boms) {
    if (sig.every((v, i) => b[i] === v)) return { encoding, length: sig.length };
  }
  return undefined;
}

/** The WHATWG name for a label (`latin1` → `windows-1252`, `sjis` → `shift_jis`), or undefined. */
export function normalizeLabel(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label.trim().toLowerCase()).encoding;
  } catch {
    return undefined;
  }
}

/** Strict UTF-8 check over at most `limit` bytes (a cut multi-byte tail at the limit is fine). */
export function looksUtf8(b: Uint8Array, limit = 1 << 20): boolean {
  const end = Math.min(b.length, limit);
  let i = 0;
  while (i < end) {
    const c = b[i] as number;
    if (c < 0x80) {
      i++;
      continue;
    }
    const n = c >= 0xf0 && c <= 0xf4 ? 3 : c >= 0xe0 ? (c <= 0xef ? 2 : -1) : c >= 0xc2 ? 1 : -1;
    if (n < 0) return false;
    for (let k = 1; k <= n; k++) {
      if (i + k >= end) return end < b.length;
      if (((b[i + k] as number) & 0xc0) !== 0x80) return false;
    }
    i += n + 1;
  }
  return true;
}

/** UTF-16 without a BOM shows as zero bytes in every other position for Latin text. */
export function sniffUtf16(b: Uint8Array): string | undefined {
  const n = Math.min(b.length - (b.length % 2), 4096);
  if (n < 4) return undefined;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (b[i] === 0) evenZero++;
    if (b[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero > pairs * 0.4 && evenZero < pairs * 0.05) return 'utf-16le';
  if (evenZero > pairs * 0.4 && oddZero < pairs * 0.05) return 'utf-16be';
  return undefined;
}

/**
 * Shift-JIS versus a single-byte Windows code page: Shift-JIS text decodes without errors and is
 * mostly made of lead/trail byte pairs that land on kana and kanji.
 */
function sniffLegacy(b: Uint8Array): string {
  const sample = b.subarray(0, 1 << 16);
  try {
    const text = new TextDecoder('shift_jis', { fatal: true }).decode(sample);
    let japanese = 0;
    let high = 0;
    for (const ch of text) {
      const cp = ch.codePointAt(0) as number;
      if (cp >= 0x3000 && cp <= 0x9fff) japanese++;
      if (cp >= 0xff00 && cp <= 0xffef) japanese++;
      if (cp > 0x7f) high++;
    }
    if (japanese > 0 && japanese >= high * 0.7) return 'shift_jis';
  } catch {
    // Not valid Shift-JIS: fall through to the Western default.
  }
  return 'windows-1252';
}

/** cp1252's 0x80–0x9F row (undefined positions map to the C1 control, as browsers do). */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * Decodes with a WHATWG encoding name. Node's `TextDecoder('windows-1252')` decodes as ISO-8859-1
 * (0x80 stays U+0080 instead of €), so that code page is mapped here; the rest goes to ICU.
 */
export function decodeWith(encoding: string, bytes: Uint8Array): string {
  if (encoding !== 'windows-1252') return new TextDecoder(encoding).decode(bytes);
  let out = '';
  const chunk = 8192;
  for (let i = 0; i < bytes.length; i += chunk) {
    const part = bytes.subarray(i, i + chunk);
    const codes = new Array<string>(part.length);
    for (let k = 0; k < part.length; k++) {
      const b = part[k] as number;
      codes[k] = b >= 0x80 && b <= 0x9f ? (CP1252_HIGH[b - 0x80] as string) : String.fromCharCode(b);
    }
    out += codes.join('');
  }
  return out;
}

export function decodeText(bytes: Uint8Array, declared?: string): Decoded {
  const bom = bomEncoding(bytes);
  if (bom)
    return {
      text: new TextDecoder(bom.encoding).decode(bytes.subarray(bom.length)),
      encoding: bom.encoding,
      by: 'bom',
    };
  const label = normalizeLabel(declared);
  // A page that says UTF-16 but has no BOM and ASCII-compatible bytes is lying (the HTML spec
  // treats such a declaration as UTF-8 for the same reason).
  if (label && !label.startsWith('utf-16')) {
    return { text: decodeWith(label, bytes), encoding: label, by: 'declared' };
  }
  const wide = sniffUtf16(bytes);
  if (wide) return { text: new TextDecoder(wide).decode(bytes), encoding: wide, by: 'sniffed' };
  const encoding = looksUtf8(bytes) ? 'utf-8' : sniffLegacy(bytes);
  return { text: decodeWith(encoding, bytes), encoding, by: 'sniffed' };
}
