/**
 * RTF lexer over the raw bytes. RTF is 7-bit by design (other bytes come as `\'hh` escapes), but
 * writers also leave raw 8-bit text in the file, so the lexer hands out bytes and leaves decoding
 * to the reader, which knows the code page of the current font.
 */

export type Token =
  | { t: 'open' }
  | { t: 'close' }
  /** A control word with its optional numeric parameter. */
  | { t: 'word'; word: string; param: number | undefined }
  /** A control symbol other than the escapes below (`\*`, `\~`, `\-`, `\_`, `\|`, …). */
  | { t: 'symbol'; ch: string }
  /** Text bytes: a plain byte, a `\'hh` escape or an escaped `\\`, `\{`, `\}`. */
  | { t: 'byte'; b: number }
  /** A run of plain ASCII text bytes, `bytes[from..to)`. */
  | { t: 'text'; from: number; to: number }
  | { t: 'eof' };

/** Longest control word and parameter the spec allows; longer runs mean a damaged file. */
const MAX_WORD = 32;
const MAX_PARAM_DIGITS = 10;

const isLetter = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const isPlain = (c: number) => c >= 0x20 && c < 0x80 && c !== 0x5c && c !== 0x7b && c !== 0x7d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/** Which raw bytes start a two-byte character in the current code page (none for single-byte pages). */
export type LeadBytes = 'none' | 'sjis' | 'wide';

const isLead = (kind: LeadBytes, c: number): boolean =>
  kind === 'sjis' ? (c >= 0x81 && c <= 0x9f) || (c >= 0xe0 && c <= 0xfc) : kind === 'wide' && c >= 0x81 && c <= 0xfe;

export class Lexer {
  pos = 0;
  /** Set by the reader from the current font: raw double-byte text may have `{`, `}` or `\` as its trail byte. */
  lead: LeadBytes = 'none';
  private trail = false;
  constructor(readonly bytes: Uint8Array) {}

  next(): Token {
    const b = this.bytes;
    if (this.trail && this.pos < b.length) {
      this.trail = false;
      return { t: 'byte', b: b[this.pos++] as number };
    }
    this.trail = false;
    for (;;) {
      if (this.pos >= b.length) return { t: 'eof' };
      const c = b[this.pos++] as number;
      if (c >= 0x80) {
        this.trail = isLead(this.lead, c);
        return { t: 'byte', b: c };
      }
      if (c === 0x7b) return { t: 'open' };
      if (c === 0x7d) return { t: 'close' };
      // Line breaks in the file carry no meaning; NULs only come from damage.
      if (c === 0x0d || c === 0x0a || c === 0) continue;
      if (c === 0x5c) return this.control();
      // Plain ASCII comes in runs, one token each, so long text costs no allocation per byte.
      const from = this.pos - 1;
      while (this.pos < b.length && isPlain(b[this.pos] as number)) this.pos++;
      return this.pos - from === 1 ? { t: 'byte', b: c } : { t: 'text', from, to: this.pos };
    }
  }

  private control(): Token {
    const b = this.bytes;
    if (this.pos >= b.length) return { t: 'eof' };
    const c = b[this.pos] as number;
    if (isLetter(c)) {
      const start = this.pos;
      while (this.pos < b.length && this.pos - start < MAX_WORD && isLetter(b[this.pos] as number)) this.pos++;
      const word = String.fromCharCode(...b.subarray(start, this.pos));
      let param: number | undefined;
      let neg = false;
      if (b[this.pos] === 0x2d && isDigit(b[this.pos + 1] ?? 0)) {
        neg = true;
        this.pos++;
      }
      if (isDigit(b[this.pos] ?? 0)) {
        let v = 0;
        let n = 0;
        while (this.pos < b.length && isDigit(b[this.pos] as number)) {
          if (n++ < MAX_PARAM_DIGITS) v = v * 10 + ((b[this.pos] as number) - 0x30);
          this.pos++;
        }
        param = neg ? -v : v;
      }
      // One space delimits the word and belongs to it.
      if (b[this.pos] === 0x20) this.pos++;
      return { t: 'word', word, param };
    }
    this.pos++;
    if (c === 0x27) {
      const hi = hexValue(b[this.pos] ?? 0);
      const lo = hexValue(b[this.pos + 1] ?? 0);
      if (hi < 0 || lo < 0) return { t: 'symbol', ch: "'" };
      this.pos += 2;
      return { t: 'byte', b: hi * 16 + lo };
    }
    if (c === 0x5c || c === 0x7b || c === 0x7d) return { t: 'byte', b: c };
    // A backslash before a line break is an old spelling of \par.
    if (c === 0x0d || c === 0x0a) return { t: 'word', word: 'par', param: undefined };
    return { t: 'symbol', ch: String.fromCharCode(c) };
  }

  /** Skips `n` raw bytes after `\binN` (bounded by the end of the input). */
  skip(n: number): void {
    this.pos = Math.min(this.bytes.length, this.pos + Math.max(0, n));
  }

  /** Reads `n` raw bytes after `\binN`. */
  take(n: number): Uint8Array {
    const start = this.pos;
    this.skip(n);
    return this.bytes.subarray(start, this.pos);
  }
}
