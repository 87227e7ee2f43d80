/**
 * RFC 4180 record reader. Lenient where real files are sloppy: any of CRLF, LF or CR ends a record;
 * text after a closing quote is kept (`"ab"c` → `abc`, as Python's csv module does); spaces before
 * an opening quote are allowed (Python's `skipinitialspace`); and a quote that never closes is
 * re-read as a literal character, so one stray quote in a damaged file cannot swallow everything
 * after it into a single cell.
 */

const QUOTE = 0x22;
const SPACE = 0x20;
const LF = 0x0a;
const CR = 0x0d;

export interface ReaderState {
  /** Set once a field opened a quote that was never closed (for a warning). */
  unterminatedQuote: boolean;
  /** Set once a record had more than `maxFields` fields (the extra ones were dropped). */
  clippedFields: boolean;
}

/**
 * Yields records as arrays of raw field strings, lazily, so callers can stop early (sniffing reads
 * only the first records; the cell cap stops the rest). `delimiter` undefined reads one field per
 * record (single-column files) while still honouring quotes. Fields past `maxFields` are read
 * but not kept, so a line of millions of delimiters costs no memory.
 */
export function* readRecords(
  text: string,
  delimiter: number | undefined,
  state?: ReaderState,
  maxFields = Number.POSITIVE_INFINITY,
): Generator<string[]> {
  const n = text.length;
  // Quotes at or after this offset are literal: once a quote never closes, the rest of the file has
  // no trustworthy quoting, and rescanning it for every later field would be quadratic.
  let literalQuotesFrom = Number.POSITIVE_INFINITY;
  let i = 0;

  /** Offset of the next delimiter or line break at or after `from` (n when none). */
  const fieldEnd = (from: number): number => {
    let k = from;
    while (k < n) {
      const c = text.charCodeAt(k);
      if (c === delimiter || c === LF || c === CR) break;
      k++;
    }
    return k;
  };

  for (;;) {
    // Empty lines carry no record; skipping them here keeps files of blank lines cheap.
    while (i < n && (text.charCodeAt(i) === LF || text.charCodeAt(i) === CR)) i++;
    if (i >= n) return;
    const fields: string[] = [];
    for (;;) {
      let value: string;
      // Hand-written files put a space after the delimiter (`a, "b, c"`): the quote still counts.
      let open = i;
      while (text.charCodeAt(open) === SPACE) open++;
      if (text.charCodeAt(open) === QUOTE && open < literalQuotesFrom) {
        const quoted = readQuoted(text, open + 1);
        if (quoted === undefined) {
          literalQuotesFrom = open;
          if (state) state.unterminatedQuote = true;
          continue;
        }
        const end = fieldEnd(quoted.next);
        value = quoted.value + text.slice(quoted.next, end);
        i = end;
      } else {
        const end = fieldEnd(i);
        value = text.slice(i, end);
        i = end;
      }
      if (fields.length < maxFields) fields.push(value);
      else if (state) state.clippedFields = true;
      if (i >= n) break;
      const c = text.charCodeAt(i);
      i++;
      if (c === delimiter) {
        // A delimiter right before the end of the text still opens one (empty) last field.
        if (i >= n) {
          if (fields.length < maxFields) fields.push('');
          break;
        }
        continue;
      }
      if (c === CR && text.charCodeAt(i) === LF) i++;
      break;
    }
    yield fields;
  }
}

/** Reads a quoted field's content starting after its opening quote; undefined when it never closes. */
function readQuoted(text: string, from: number): { value: string; next: number } | undefined {
  let doubled = false;
  let q = from - 1;
  for (;;) {
    q = text.indexOf('"', q + 1);
    if (q < 0) return undefined;
    if (text.charCodeAt(q + 1) !== QUOTE) break;
    doubled = true;
    q++;
  }
  const raw = text.slice(from, q);
  // split/join: several times faster than replaceAll on fields made of thousands of doubled quotes.
  return { value: doubled ? raw.split('""').join('"') : raw, next: q + 1 };
}

/** A record that is only whitespace carries no row (empty lines never become records). */
export const isBlankRecord = (fields: readonly string[]): boolean =>
  fields.length === 1 && (fields[0] as string).trim() === '';
