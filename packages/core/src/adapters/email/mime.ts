import { throwIfAborted } from '../../errors.ts';
import { fromBase64 } from '../../util/bytes.ts';
import { decodeWith, looksUtf8, normalizeLabel } from '../../util/charset.ts';

/**
 * RFC 5322 / MIME messages read from a byte string (one char per byte, so offsets are byte offsets
 * and nothing is decoded before its charset is known): headers (folded lines, RFC 2047 encoded
 * words, RFC 2231 parameters, raw UTF-8), multipart bodies (boundaries found with indexOf, linear
 * in the size), transfer encodings (base64, quoted-printable) and attached messages. Every loop is
 * bounded: a part budget shared by the whole message, a nesting depth, a header block size.
 */

export interface MimePart {
  /** Header names lower-cased, values unfolded and decoded, in order. */
  headers: [string, string][];
  /** Media type, lower-cased (`text/plain` when absent or broken). */
  type: string;
  params: Record<string, string>;
  /** `attachment` or `inline` when the part says so. */
  disposition?: string;
  filename?: string;
  contentId?: string;
  /** Parts of a multipart. */
  children?: MimePart[];
  /** An attached message (`message/rfc822`). */
  message?: MimePart;
  /** Transfer-decoded bytes of a leaf. */
  body?: Uint8Array;
}

export interface MimeBudget {
  /** Parts still allowed, whole message. */
  parts: number;
  /** Deepest multipart or attached-message nesting. */
  depth: number;
  warn(message: string): void;
  signal?: AbortSignal | undefined;
  /** Set once the part budget ran out (warned once). */
  exhausted?: boolean;
  /** Set once a multipart's closing boundary was missing (warned once). */
  unterminated?: boolean;
}

/** A header block longer than this is not headers (a part with none, or garbage). */
const MAX_HEADER_BLOCK = 1 << 20;

/** The bytes of a byte string, and a byte string of bytes. */
export function binaryString(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return s;
}
export function bytesOf(bin: string, start = 0, end = bin.length): Uint8Array {
  const out = new Uint8Array(Math.max(0, end - start));
  for (let i = start; i < end; i++) out[i - start] = bin.charCodeAt(i);
  return out;
}

/** Text in a charset (a label the mail gave, or none), with the charset module's checks. */
export function decodeCharset(bytes: Uint8Array, charset: string | undefined): string {
  const label = normalizeLabel(charset) ?? (looksUtf8(bytes) ? 'utf-8' : 'windows-1252');
  return decodeWith(label, bytes);
}

/** A raw header value: 8-bit bytes as UTF-8 when they are (RFC 6532), else Windows-1252. */
function rawHeaderText(bin: string): string {
  if (!/[\x80-\xff]/.test(bin)) return bin;
  return decodeCharset(bytesOf(bin), undefined);
}

function qDecode(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === '_') out.push(0x20);
    else if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      out.push(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else out.push(c.charCodeAt(0) & 0xff);
  }
  return Uint8Array.from(out);
}

const ENCODED_WORD = /=\?([^?\s]+)\?([bBqQ])\?([^?]*)\?=/g;

/** RFC 2047 encoded words decoded; the blanks between two adjacent ones dropped. */
export function decodeWords(value: string): string {
  const text = rawHeaderText(value);
  if (!text.includes('=?')) return text;
  return text
    .replace(/(=\?[^?\s]+\?[bBqQ]\?[^?]*\?=)\s+(?==\?[^?\s]+\?[bBqQ]\?[^?]*\?=)/g, '$1')
    .replace(ENCODED_WORD, (m, charset: string, enc: string, data: string) => {
      const label = normalizeLabel(charset.split('*')[0]);
      if (!label) return m;
      const bytes = enc.toLowerCase() === 'b' ? fromBase64(data) : qDecode(data);
      return decodeWith(label, bytes);
    });
}

/** Headers of a block: folded lines joined, `Name: value` pairs, names lower-cased. */
export function parseHeaders(block: string): [string, string][] {
  const out: [string, string][] = [];
  for (const line of block.split(/\r?\n(?![ \t])/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!/^[!-9;-~]+$/.test(name)) continue;
    out.push([
      name,
      line
        .slice(colon + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
    ]);
  }
  return out;
}

export const header = (headers: readonly [string, string][], name: string): string | undefined =>
  headers.find(([n]) => n === name)?.[1];

/** A structured value: `type/sub; a=1; b="x y"; name*=utf-8''%E2%82%AC; c*0=..; c*1=..`. */
export function structured(value: string): { value: string; params: Record<string, string> } {
  const parts: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as string;
    if (c === '"' && value[i - 1] !== '\\') quoted = !quoted;
    if (c === ';' && !quoted) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  parts.push(cur);
  const params: Record<string, string> = {};
  const continued = new Map<string, { index: number; text: string; encoded: boolean }[]>();
  for (const p of parts.slice(1)) {
    const eq = p.indexOf('=');
    if (eq <= 0) continue;
    const key = p.slice(0, eq).trim().toLowerCase();
    let v = p.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
    const m = /^([^*]+)\*(\d+)?(\*)?$/.exec(key);
    if (!m) {
      params[key] = decodeWords(v);
      continue;
    }
    const list = continued.get(m[1] as string) ?? [];
    list.push({ index: Number(m[2] ?? 0), text: v, encoded: Boolean(m[3]) || m[2] === undefined });
    continued.set(m[1] as string, list);
  }
  // RFC 2231: charset'language'percent-encoded, possibly split into numbered pieces.
  for (const [key, pieces] of continued) {
    pieces.sort((a, b) => a.index - b.index);
    let charset: string | undefined;
    const bytes: number[] = [];
    for (const [i, piece] of pieces.entries()) {
      let text = piece.text;
      if (i === 0 && piece.encoded) {
        const q = /^([^']*)'[^']*'(.*)$/.exec(text);
        if (q) {
          charset = q[1] || undefined;
          text = q[2] as string;
        }
      }
      if (piece.encoded)
        text.replace(/%([0-9A-Fa-f]{2})|[\s\S]/g, (all, hex: string | undefined) => {
          bytes.push(hex ? Number.parseInt(hex, 16) : all.charCodeAt(0) & 0xff);
          return '';
        });
      else for (let k = 0; k < text.length; k++) bytes.push(text.charCodeAt(k) & 0xff);
    }
    params[key] = decodeCharset(Uint8Array.from(bytes), charset);
  }
  return { value: (parts[0] ?? '').trim().toLowerCase(), params };
}

function qpDecode(bin: string): Uint8Array {
  const out = new Uint8Array(bin.length);
  let n = 0;
  for (let i = 0; i < bin.length; i++) {
    const c = bin.charCodeAt(i);
    if (c === 0x3d) {
      const next = bin.slice(i + 1, i + 3);
      if (/^[0-9A-Fa-f]{2}$/.test(next)) {
        out[n++] = Number.parseInt(next, 16);
        i += 2;
        continue;
      }
      // Soft line break: `=` ending a line (trailing blanks allowed).
      const soft = /^[ \t]*\r?\n/.exec(bin.slice(i + 1, i + 80));
      if (soft) {
        i += soft[0].length;
        continue;
      }
    }
    out[n++] = c & 0xff;
  }
  return out.subarray(0, n);
}

function transferDecode(bin: string, encoding: string | undefined): Uint8Array {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'base64':
      return fromBase64(bin);
    case 'quoted-printable':
      return qpDecode(bin);
    default:
      return bytesOf(bin);
  }
}

/** Where the header block of [start, end) ends and the body starts. */
function splitHeaders(bin: string, start: number, end: number): { headerEnd: number; bodyStart: number } {
  // A part starting with a blank line has no headers.
  if (bin.startsWith('\r\n', start)) return { headerEnd: start, bodyStart: start + 2 };
  if (bin[start] === '\n') return { headerEnd: start, bodyStart: start + 1 };
  const limit = Math.min(end, start + MAX_HEADER_BLOCK);
  // Searched within the part only: a search running on to the end of the message, once per part,
  // made 100,000 parts quadratic.
  const block = bin.slice(start, limit);
  const lf = block.indexOf('\n\n');
  const crlf = block.indexOf('\r\n\r\n');
  const found = lf < 0 ? crlf : crlf < 0 ? lf : Math.min(lf, crlf);
  if (found < 0) return { headerEnd: limit === end ? end : start, bodyStart: limit === end ? end : start };
  const at = start + found;
  return { headerEnd: at, bodyStart: at + (found === crlf ? 4 : 2) };
}

/** Body ranges between the boundary lines of a multipart body. */
function splitMultipart(
  bin: string,
  start: number,
  end: number,
  boundary: string,
  budget: MimeBudget,
): [number, number][] {
  const delimiter = `--${boundary}`;
  const ranges: [number, number][] = [];
  // Delimiters start a line: find "\n--b", or "--b" at the very start of the body.
  const next = (from: number): number => {
    if (from === start && bin.startsWith(delimiter, start)) return start;
    const at = bin.indexOf(`\n${delimiter}`, from);
    return at < 0 || at >= end ? -1 : at + 1;
  };
  let at = next(start);
  if (at < 0) return ranges;
  for (;;) {
    const lineEnd = bin.indexOf('\n', at);
    if (bin.startsWith('--', at + delimiter.length)) return ranges; // closing delimiter
    const partStart = lineEnd < 0 || lineEnd >= end ? end : lineEnd + 1;
    const following = next(Math.max(start, partStart - 1));
    if (ranges.length >= budget.parts) {
      budget.exhausted = true;
      return ranges;
    }
    if (following < 0) {
      // No closing delimiter: the last part runs to the end of the message.
      if (!budget.unterminated) {
        budget.unterminated = true;
        budget.warn(
          'A multipart body is never closed (its final boundary is missing); its last part runs to the end of the message.',
        );
      }
      ranges.push([partStart, end]);
      return ranges;
    }
    // The line break before a delimiter belongs to the delimiter.
    let partEnd = following - 1;
    if (bin[partEnd - 1] === '\r') partEnd--;
    ranges.push([partStart, Math.max(partStart, partEnd)]);
    at = following;
    if (ranges.length % 256 === 0) throwIfAborted(budget.signal);
  }
}

/** Parses the part (or whole message) held in [start, end) of the byte string. */
export function parsePart(bin: string, start: number, end: number, budget: MimeBudget, depth = 0): MimePart {
  budget.parts--;
  const { headerEnd, bodyStart } = splitHeaders(bin, start, end);
  const headers = parseHeaders(rawHeaderText(bin.slice(start, headerEnd)));
  const ct = structured(header(headers, 'content-type') ?? 'text/plain');
  const type = /^[\w.+-]+\/[\w.+-]+$/.test(ct.value) ? ct.value : 'text/plain';
  const part: MimePart = { headers, type, params: ct.params };
  const disposition = header(headers, 'content-disposition');
  if (disposition) {
    const d = structured(disposition);
    part.disposition = d.value;
    if (d.params.filename) part.filename = d.params.filename;
  }
  part.filename ??= ct.params.name;
  const cid = header(headers, 'content-id');
  if (cid) part.contentId = cid.replace(/^<|>$/g, '');
  const boundary = ct.params.boundary;
  if (type.startsWith('multipart/') && boundary) {
    if (depth >= budget.depth) {
      budget.warn(`MIME parts nested more than ${budget.depth} deep were not read.`);
      part.children = [];
      return part;
    }
    const ranges = splitMultipart(bin, bodyStart, end, boundary, budget);
    part.children = [];
    for (const [s, e] of ranges) {
      if (budget.parts <= 0) {
        budget.exhausted = true;
        break;
      }
      part.children.push(parsePart(bin, s, e, budget, depth + 1));
    }
    return part;
  }
  const encoding = header(headers, 'content-transfer-encoding');
  if (type === 'message/rfc822' && depth < budget.depth && budget.parts > 0) {
    const inner = transferDecode(bin.slice(bodyStart, end), encoding);
    const innerBin = encoding && !/^(7bit|8bit|binary)$/i.test(encoding.trim()) ? binaryString(inner) : undefined;
    part.message = innerBin
      ? parsePart(innerBin, 0, innerBin.length, budget, depth + 1)
      : parsePart(bin, bodyStart, end, budget, depth + 1);
    return part;
  }
  part.body = transferDecode(bin.slice(bodyStart, end), encoding);
  return part;
}
