import { badRequest } from './errors.ts';

/** Parts a form may have; the API needs three (`file`, `options`, `password`). */
export const MAX_PARTS = 100;
/** Bytes of one part's header block (its Content-Disposition carries the file name). */
export const MAX_PART_HEADER_BYTES = 16 * 1024;
/** Spaces and tabs allowed between a boundary and its line end (RFC 2046 transport padding). */
const MAX_PADDING = 256;

export interface PartHeaders {
  /** The form field name (`name=`). */
  name: string | undefined;
  /** `filename*=` (RFC 5987) when given, else `filename=`; undefined for a plain field. */
  filename: string | undefined;
  contentType: string | undefined;
}

/** Receives the parts of a form as they stream: `data` may be called many times per part. */
export interface PartSink {
  part(headers: PartHeaders): void;
  data(bytes: Uint8Array): void;
  /** The current part is complete. */
  end(): void;
}

const CR = 13;
const LF = 10;
const DASH = 45;
const encoder = new TextEncoder();
const headerDecoder = new TextDecoder('utf-8');

const invalid = (why: string) => badRequest(`Invalid multipart/form-data body: ${why}.`);

type State = 'preamble' | 'headers' | 'body' | 'done';

/**
 * An incremental multipart/form-data parser: bytes go in as they arrive (`push`), parts come out
 * through the sink, and no step costs more than the bytes it was given (a 44 MB body of 450,000
 * tiny parts used to be parsed in one synchronous call that held the event loop for 43 s). A
 * delimiter is CRLF + `--boundary` followed by `--`, or by optional padding and CRLF; the same
 * text anywhere else is content. The body is read as if it began with a CRLF, so the first
 * boundary needs none.
 */
export class MultipartParser {
  readonly #delimiter: Uint8Array;
  readonly #sink: PartSink;
  #state: State = 'preamble';
  /** Bytes received and not yet handed on: never more than a delimiter's length, or a header block. */
  #buf: Uint8Array;
  #parts = 0;

  constructor(boundary: string, sink: PartSink) {
    this.#delimiter = encoder.encode(`\r\n--${boundary}`);
    this.#sink = sink;
    this.#buf = new Uint8Array([CR, LF]);
  }

  get done(): boolean {
    return this.#state === 'done';
  }

  push(chunk: Uint8Array): void {
    if (this.#state === 'done') return; // the epilogue is ignored
    this.#buf = concat(this.#buf, chunk);
    for (;;) {
      const before = this.#buf.length;
      const state: State = this.#state;
      if (state === 'preamble' || state === 'body') this.#scan();
      else if (state === 'headers') this.#headers();
      else return;
      if (this.#buf.length === before && this.#state === state) return; // needs more bytes
    }
  }

  /** The body ended: it must have ended with the closing delimiter. */
  end(): void {
    if (this.#state !== 'done') throw invalid('it ends before its closing boundary');
  }

  /** Looks for the next delimiter; what precedes it is content (or preamble, dropped). */
  #scan(): void {
    const buf = this.#buf;
    const d = this.#delimiter;
    let at = buf.indexOf(CR);
    while (at !== -1) {
      if (at + d.length > buf.length) break; // a delimiter may start here: wait
      let j = 1;
      while (j < d.length && buf[at + j] === d[j]) j++;
      if (j === d.length) {
        const after = this.#afterDelimiter(at + d.length);
        if (after === 'wait') break;
        if (after !== 'content') {
          if (this.#state === 'body') {
            if (at > 0) this.#sink.data(buf.subarray(0, at));
            this.#sink.end();
          }
          this.#buf = buf.subarray(after.next);
          this.#state = after.close ? 'done' : 'headers';
          if (!after.close && ++this.#parts > MAX_PARTS) {
            throw badRequest(`The form has more than ${MAX_PARTS} parts (the limit).`);
          }
          return;
        }
      }
      // The delimiter starts with the only CR it holds: no match can begin inside the bytes compared.
      at = buf.indexOf(CR, at + 1);
    }
    // Every delimiter starts with a CR: with no candidate left, all bytes are content.
    const safe = at === -1 ? buf.length : at;
    if (safe > 0) {
      if (this.#state === 'body') this.#sink.data(buf.subarray(0, safe));
      this.#buf = buf.subarray(safe);
    }
  }

  /** What follows a delimiter: `--` closes the form, padding and CRLF start a part, else it was content. */
  #afterDelimiter(i: number): { next: number; close: boolean } | 'wait' | 'content' {
    const buf = this.#buf;
    if (i + 2 > buf.length) return 'wait';
    if (buf[i] === DASH && buf[i + 1] === DASH) return { next: i + 2, close: true };
    let k = i;
    while (k < buf.length && k - i <= MAX_PADDING && (buf[k] === 32 || buf[k] === 9)) k++;
    if (k - i > MAX_PADDING) return 'content';
    if (k + 2 > buf.length) return 'wait';
    return buf[k] === CR && buf[k + 1] === LF ? { next: k + 2, close: false } : 'content';
  }

  #headers(): void {
    const buf = this.#buf;
    // An empty header block is just the blank line.
    const end = buf[0] === CR && buf[1] === LF ? 0 : blankLine(buf);
    if (end === -1) {
      if (buf.length > MAX_PART_HEADER_BYTES) {
        throw badRequest(`A part's headers exceed ${MAX_PART_HEADER_BYTES} bytes (the limit).`);
      }
      return;
    }
    if (end > MAX_PART_HEADER_BYTES) {
      throw badRequest(`A part's headers exceed ${MAX_PART_HEADER_BYTES} bytes (the limit).`);
    }
    const block = end === 0 ? '' : headerDecoder.decode(buf.subarray(0, end));
    this.#buf = buf.subarray(end === 0 ? 2 : end + 4);
    this.#state = 'body';
    this.#sink.part(parsePartHeaders(block));
  }
}

/** Index of the first CRLFCRLF, or -1. */
function blankLine(buf: Uint8Array): number {
  for (let at = buf.indexOf(CR); at !== -1 && at + 3 < buf.length; at = buf.indexOf(CR, at + 1)) {
    if (buf[at + 1] === LF && buf[at + 2] === CR && buf[at + 3] === LF) return at;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Header lines of one part; folded lines (obsolete) are joined to the line before. */
export function parsePartHeaders(block: string): PartHeaders {
  const fields = new Map<string, string>();
  let last: string | undefined;
  for (const line of block.split('\r\n')) {
    if ((line.startsWith(' ') || line.startsWith('\t')) && last) {
      fields.set(last, `${fields.get(last)} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    last = line.slice(0, colon).trim().toLowerCase();
    if (!fields.has(last)) fields.set(last, line.slice(colon + 1).trim());
  }
  const disposition = parseParams(fields.get('content-disposition') ?? '');
  const contentType = fields.get('content-type')?.trim();
  return {
    name: disposition.get('name'),
    filename: disposition.get('filename*') ?? disposition.get('filename'),
    contentType: contentType || undefined,
  };
}

/**
 * The parameters of `form-data; name="file"; filename="a.pdf"; filename*=UTF-8''%E2%82%AC.pdf`:
 * quoted strings unescaped (`\"`, `\\`; other backslashes kept, as in Windows paths), `name*`
 * values decoded per RFC 5987 (UTF-8 or ISO-8859-1, percent-encoded).
 */
export function parseParams(value: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = value.indexOf(';');
  if (i === -1) return out;
  i++;
  while (i < value.length) {
    while (value[i] === ' ' || value[i] === '\t' || value[i] === ';') i++;
    const eq = value.indexOf('=', i);
    if (eq === -1) break;
    const key = value.slice(i, eq).trim().toLowerCase();
    i = eq + 1;
    while (value[i] === ' ' || value[i] === '\t') i++;
    let v = '';
    if (value[i] === '"') {
      i++;
      while (i < value.length && value[i] !== '"') {
        if (value[i] === '\\' && (value[i + 1] === '"' || value[i + 1] === '\\')) i++;
        v += value[i];
        i++;
      }
      i++; // closing quote
      const semi = value.indexOf(';', i);
      i = semi === -1 ? value.length : semi + 1;
    } else {
      const semi = value.indexOf(';', i);
      const end = semi === -1 ? value.length : semi;
      v = value.slice(i, end).trim();
      i = end + 1;
    }
    if (key.endsWith('*')) {
      const decoded = decodeExtValue(v);
      if (decoded !== undefined && !out.has(key)) out.set(key, decoded);
    } else if (key && !out.has(key)) out.set(key, v);
  }
  return out;
}

/** RFC 5987 `charset'language'percent-encoded`; undefined when malformed or another charset. */
function decodeExtValue(v: string): string | undefined {
  const m = /^([\w!#$%&+^`{}~-]*)'[\w-]*'(.*)$/.exec(v);
  if (!m) return undefined;
  const charset = (m[1] as string).toLowerCase();
  const bytes: number[] = [];
  const text = m[2] as string;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '%' && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(text.charCodeAt(i) & 0xff);
  }
  if (charset === 'utf-8') return new TextDecoder('utf-8').decode(new Uint8Array(bytes));
  if (charset === 'iso-8859-1') return String.fromCharCode(...bytes);
  return undefined;
}
