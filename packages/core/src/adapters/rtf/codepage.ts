import { decodeWith } from '../../util/decode-with.ts';

/**
 * Windows code pages as RTF names them (`\ansicpgN`, `\cpgN`, or a font's `\fcharsetN`) mapped to
 * WHATWG encoding labels for `TextDecoder`.
 */

/** `\fcharsetN` → Windows code page (0 means "the document's ANSI code page"). */
const CHARSET_CODEPAGE: Record<number, number> = {
  0: 0,
  1: 0,
  2: 1252, // Symbol fonts: their glyphs have no Unicode mapping we can rely on.
  77: 10000,
  78: 10001,
  128: 932,
  129: 949,
  130: 1361,
  134: 936,
  136: 950,
  161: 1253,
  162: 1254,
  163: 1258,
  177: 1255,
  178: 1256,
  186: 1257,
  204: 1251,
  222: 874,
  238: 1250,
  254: 437,
  255: 850,
};

export const charsetCodepage = (charset: number): number => CHARSET_CODEPAGE[charset] ?? 0;

const LABELS: Record<number, string> = {
  437: 'ibm866', // no WHATWG decoder for 437; its letters differ, but better than dropping bytes
  850: 'ibm866',
  866: 'ibm866',
  874: 'windows-874',
  932: 'shift_jis',
  936: 'gbk',
  949: 'euc-kr',
  950: 'big5',
  1361: 'euc-kr',
  10000: 'macintosh',
  10001: 'shift_jis',
  20932: 'euc-jp',
  28591: 'windows-1252',
  65001: 'utf-8',
};

function labelOf(codepage: number): string {
  if (codepage >= 1250 && codepage <= 1258) return `windows-${codepage}`;
  return LABELS[codepage] ?? 'windows-1252';
}

const supported = new Map<number, string>();

/** The encoding label for a code page, falling back to windows-1252 when the runtime lacks it. */
export function encodingOf(codepage: number): string {
  let label = supported.get(codepage);
  if (label) return label;
  label = labelOf(codepage);
  try {
    new TextDecoder(label);
  } catch {
    label = 'windows-1252';
  }
  supported.set(codepage, label);
  return label;
}

export const decodeBytes = (codepage: number, bytes: Uint8Array): string => decodeWith(encodingOf(codepage), bytes);
