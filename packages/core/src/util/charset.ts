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

/**
 * Valid multi-byte sequences and invalid bytes among the first `limit` bytes. A sequence cut by the
 * scan limit is not held against the text; one cut by the end of the file is (truncated upload).
 */
function utf8Evidence(b: Uint8Array, limit: number): { multi: number; invalid: number } {
  const end = Math.min(b.length, limit);
  let multi = 0;
  let invalid = 0;
  let i = 0;
  while (i < end) {
    const c = b[i] as number;
    if (c < 0x80) {
      i++;
      continue;
    }
    const n = c >= 0xf0 && c <= 0xf4 ? 3 : c >= 0xe0 ? (c <= 0xef ? 2 : -1) : c >= 0xc2 ? 1 : -1;
    let k = 1;
    while (n > 0 && k <= n && i + k < end && ((b[i + k] as number) & 0xc0) === 0x80) k++;
    if (n > 0 && k > n) {
      multi++;
      i += n + 1;
    } else if (n > 0 && i + k >= end) {
      if (end === b.length) invalid++;
      break;
    } else {
      invalid++;
      i++;
    }
  }
  return { multi, invalid };
}

/** Strict UTF-8 check over at most `limit` bytes (a cut multi-byte tail at the limit is fine). */
export function looksUtf8(b: Uint8Array, limit = 1 << 20): boolean {
  return utf8Evidence(b, limit).invalid === 0;
}

/**
 * UTF-8 with a few flaws (a truncated last character, a stray byte from another encoding) is still
 * UTF-8: decoding it as a legacy code page would garble every correct character.
 */
function mostlyUtf8(b: Uint8Array): boolean {
  const { multi, invalid } = utf8Evidence(b, 1 << 20);
  return invalid === 0 || multi >= invalid * 4;
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
  const sample = b.subarray(0, n);
  // Latin text: zero bytes in every other position. Mostly-CJK text has them only under its ASCII
  // (digits, punctuation, line breaks), so a weaker one-sided pattern is accepted too. Either way
  // the sample must then decode to clean text, so arrays of 16-bit numbers are not taken for text.
  if (oddZero >= pairs * 0.1 && evenZero <= Math.min(oddZero * 0.1, pairs * 0.05)) {
    return cleanUtf16('utf-16le', sample) ? 'utf-16le' : undefined;
  }
  if (evenZero >= pairs * 0.1 && oddZero <= Math.min(evenZero * 0.1, pairs * 0.05)) {
    return cleanUtf16('utf-16be', sample) ? 'utf-16be' : undefined;
  }
  return undefined;
}

/** At most 1% replacement characters or C0 controls other than tab, line breaks and form feed. */
function cleanUtf16(encoding: string, sample: Uint8Array): boolean {
  // The sample may end inside a surrogate pair; its last unit proves nothing.
  const text = new TextDecoder(encoding).decode(sample).slice(0, -1);
  const noise = text.match(/[\uFFFD\u0000-\u0008\u000B\u000E-\u001F]/g)?.length ?? 0;
  return noise <= text.length * 0.01;
}

/** Kana, kanji, CJK punctuation and full/half-width forms: what Shift-JIS pairs decode to. */
const isJapanese = (cp: number): boolean =>
  (cp >= 0x3000 && cp <= 0x30ff) || (cp >= 0x3400 && cp <= 0x9fff) || (cp >= 0xff01 && cp <= 0xff9f);
const isHalfWidthKana = (cp: number): boolean => cp >= 0xff61 && cp <= 0xff9f;
const isAsciiLetter = (cp: number | undefined): boolean =>
  cp !== undefined && ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a));

/**
 * Shift-JIS versus a single-byte Windows code page. Latin text in cp1252 often decodes as "valid"
 * Shift-JIS too (`è` plus the next letter is a kanji pair, `ß` a half-width katakana), but those
 * characters sit alone inside Latin words, whereas real Japanese comes in runs of several kana or
 * kanji. So runs of Japanese characters count for Shift-JIS, characters wedged between ASCII
 * letters (and lone half-width katakana) count against it, as does anything else non-ASCII.
 */
function sniffLegacy(b: Uint8Array): string {
  const sample = b.subarray(0, 1 << 16);
  const chars = Array.from(new TextDecoder('shift_jis').decode(sample), (ch) => ch.codePointAt(0) as number);
  // A sample cut inside a two-byte pair ends in one replacement character that means nothing.
  if (sample.length < b.length && chars[chars.length - 1] === 0xfffd) chars.pop();
  let good = 0;
  let bad = 0;
  for (let i = 0; i < chars.length; ) {
    const cp = chars[i] as number;
    if (cp < 0x80) {
      i++;
      continue;
    }
    if (!isJapanese(cp)) {
      bad++;
      i++;
      continue;
    }
    let end = i;
    while (end < chars.length && isJapanese(chars[end] as number)) end++;
    const run = end - i;
    const insideWord = isAsciiLetter(chars[i - 1]) && isAsciiLetter(chars[end]);
    if (run >= 3) good += run;
    else if (insideWord || (run === 1 && isHalfWidthKana(cp))) bad += run;
    else good += run;
    i = end;
  }
  return good > 0 && good >= bad * 3 ? 'shift_jis' : 'windows-1252';
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
    const sniffed = contradicted(label, bytes);
    if (!sniffed) return { text: decodeWith(label, bytes), encoding: label, by: 'declared' };
    return { text: decodeWith(sniffed, bytes), encoding: sniffed, by: 'sniffed' };
  }
  const wide = sniffUtf16(bytes);
  if (wide) return { text: new TextDecoder(wide).decode(bytes), encoding: wide, by: 'sniffed' };
  const encoding = mostlyUtf8(bytes) ? 'utf-8' : sniffLegacy(bytes);
  return { text: decodeWith(encoding, bytes), encoding, by: 'sniffed' };
}

/** Replacement characters a decode may produce before the declaration is doubted (stray bytes). */
const tolerableGarbage = (length: number): number => Math.max(2, length / 1000);

/**
 * The encoding the bytes show when they contradict a declared one, else undefined. Pages are
 * saved by one tool and labelled by another (a template's `<meta charset="utf-8">` over
 * Windows-1252 or Shift-JIS text, an `iso-8859-1` header over UTF-8), and a browser reading
 * such a page shows its text, not a screen of U+FFFD. Evidence, in order: bytes that are not UTF-8
 * under a UTF-8 label; valid multi-byte UTF-8 under a legacy label (legacy text practically never
 * forms such sequences, whereas any UTF-8 beyond ASCII does); a legacy multi-byte label whose
 * decode is full of replacement characters.
 */
function contradicted(label: string, bytes: Uint8Array): string | undefined {
  if (label === 'utf-8') return mostlyUtf8(bytes) ? undefined : sniffLegacy(bytes);
  const { multi, invalid } = utf8Evidence(bytes, 1 << 20);
  if (multi > 0 && invalid === 0) return 'utf-8';
  if (label === 'windows-1252' || label.startsWith('iso-8859') || label.startsWith('windows-')) return undefined;
  // Multi-byte legacy labels (Shift-JIS, EUC, GBK, Big5) can be checked by decoding a sample.
  const sample = bytes.subarray(0, 1 << 16);
  const bad = (text: string) => text.match(/\uFFFD/g)?.length ?? 0;
  const declaredBad = bad(new TextDecoder(label).decode(sample));
  if (declaredBad <= tolerableGarbage(sample.length)) return undefined;
  const other = mostlyUtf8(bytes) ? 'utf-8' : sniffLegacy(bytes);
  return other !== label && bad(decodeWith(other, sample)) < declaredBad ? other : undefined;
}
