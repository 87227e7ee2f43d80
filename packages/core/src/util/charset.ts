/**
 * Text decoding for formats that carry no reliable encoding of their own (HTML, CSV, plain text
 * parts). Order of evidence: byte-order mark, then an encoding the caller found declared in the
 * document, then what the bytes themselves look like. Uses only `TextDecoder`, so it runs in
 * browsers too (Node ships full ICU, which includes Shift-JIS and the Windows code pages).
 */

import { isIso2022Jp, LEGACY_CANDIDATES, textScore } from './charset-sniff.ts';
import { decodeWith } from './decode-with.ts';
import { sniffUtf16 } from './utf16.ts';

export { decodeWith } from './decode-with.ts';
export { sniffUtf16 } from './utf16.ts';

export interface Decoded {
  text: string;
  /** WHATWG encoding name actually used. */
  encoding: string;
  /** How the encoding was chosen, for warnings and tests. */
  by: 'bom' | 'declared' | 'sniffed';
  /** The encoding the document declared (WHATWG name), when it declared one the bytes contradict. */
  contradicts?: string;
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

/** Sample a guess is made on: enough text, bounded work. */
const SAMPLE = 1 << 16;

/**
 * The legacy encoding whose decode of the first 64 KB reads most like text (textScore), with its
 * score; ties go to the more common encoding. Windows-1252 for text with no byte outside ASCII.
 */
function sniffLegacy(bytes: Uint8Array): { encoding: string; score: number } {
  const sample = bytes.subarray(0, SAMPLE);
  if (isIso2022Jp(sample)) return { encoding: 'iso-2022-jp', score: 1 };
  // A multi-byte character cut by the sample's end decodes as one replacement character.
  const cut = sample.length < bytes.length;
  let best = { encoding: 'windows-1252', score: Number.NEGATIVE_INFINITY };
  for (const [encoding, prior] of LEGACY_CANDIDATES) {
    let text = decodeWith(encoding, sample);
    if (cut && text.endsWith('\ufffd')) text = text.slice(0, -1);
    const score = textScore(text);
    if (score === undefined) return { encoding: 'windows-1252', score: 0 };
    if (score + prior > best.score) best = { encoding, score: score + prior };
  }
  return best;
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
    return { text: decodeWith(sniffed, bytes), encoding: sniffed, by: 'sniffed', contradicts: label };
  }
  const wide = sniffUtf16(bytes);
  if (wide) return { text: new TextDecoder(wide).decode(bytes), encoding: wide, by: 'sniffed' };
  const encoding = isIso2022Jp(bytes.subarray(0, SAMPLE))
    ? 'iso-2022-jp'
    : mostlyUtf8(bytes)
      ? 'utf-8'
      : sniffLegacy(bytes).encoding;
  return { text: decodeWith(encoding, bytes), encoding, by: 'sniffed' };
}

/** How much better than the declared encoding's decode a guess must read to overrule it. */
const OVERRULE_MARGIN = 0.3;
/** A declared decode scoring this well is kept without guessing (no guess can beat it by the margin). */
const CLEARLY_TEXT = 0.95;

/**
 * The encoding the bytes show when they contradict a declared one, else undefined. Pages are
 * saved by one tool and labelled by another (a template's `<meta charset="utf-8">` over
 * Windows-1252 or Shift-JIS text, an `iso-8859-1` header over UTF-8), and a browser reading
 * such a page shows its text, not a screen of U+FFFD. Evidence, in order: UTF-16 bytes (zero bytes
 * in every other position) under any label; bytes that are not UTF-8 under a UTF-8 label; valid
 * multi-byte UTF-8 under a legacy label (legacy text practically never forms such sequences,
 * whereas any UTF-8 beyond ASCII does); a legacy encoding whose decode reads clearly more like
 * text than the declared one's (charset-sniff.ts).
 */
function contradicted(label: string, bytes: Uint8Array): string | undefined {
  const wide = sniffUtf16(bytes);
  if (wide) return wide;
  // Seven-bit ISO-2022-JP is valid ASCII, so valid UTF-8: only its escapes give it away.
  if (label !== 'iso-2022-jp' && isIso2022Jp(bytes.subarray(0, SAMPLE))) return 'iso-2022-jp';
  if (label === 'utf-8') return mostlyUtf8(bytes) ? undefined : sniffLegacy(bytes).encoding;
  const { multi, invalid } = utf8Evidence(bytes, 1 << 20);
  if (multi > 0 && invalid === 0) return 'utf-8';
  const own = textScore(decodeWith(label, bytes.subarray(0, SAMPLE)));
  // Nothing telling, or a decode that reads as well as text can: no guess could do better.
  if (own === undefined || own >= CLEARLY_TEXT) return undefined;
  const guess = sniffLegacy(bytes);
  return guess.encoding !== label && guess.score > own + OVERRULE_MARGIN ? guess.encoding : undefined;
}
