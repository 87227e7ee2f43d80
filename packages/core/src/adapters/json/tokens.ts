/**
 * JSON read token by token, so what is shown is what the file says: numbers keep their digits
 * (JSON.parse rounds past 2^53), keys their order (JSON.parse moves integer-like keys first).
 * Callers validate with JSON.parse first; these functions assume well-formed input.
 */

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** End (exclusive) of the string token starting at `i` (its opening quote). */
function stringEnd(s: string, i: number): number {
  let j = i + 1;
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (c === 0x5c) j += 2;
    else if (c === 0x22) return j + 1;
    else j++;
  }
  return j;
}

/** End (exclusive) of a number or literal token starting at `i`. */
function scalarEnd(s: string, i: number): number {
  let j = i;
  while (j < s.length && !WS.has(s.charCodeAt(j)) && !',]}:'.includes(s[j] as string)) j++;
  return j;
}

/** Indentation stops growing here, so a hostile nesting cannot make the output quadratic. */
const MAX_INDENT = 32;

/** The JSON re-indented with two spaces, every token as written. */
export function reindent(s: string): string {
  const out: string[] = [];
  let depth = 0;
  const pad = () => `\n${'  '.repeat(Math.min(depth, MAX_INDENT))}`;
  let i = 0;
  while (i < s.length) {
    const c = s[i] as string;
    if (WS.has(s.charCodeAt(i))) {
      i++;
      continue;
    }
    if (c === '{' || c === '[') {
      // An empty container stays on its line.
      let k = i + 1;
      while (k < s.length && WS.has(s.charCodeAt(k))) k++;
      if (s[k] === (c === '{' ? '}' : ']')) {
        out.push(c === '{' ? '{}' : '[]');
        i = k + 1;
        continue;
      }
      depth++;
      out.push(c, pad());
      i++;
    } else if (c === '}' || c === ']') {
      depth--;
      out.push(pad(), c);
      i++;
    } else if (c === ',') {
      out.push(',', pad());
      i++;
    } else if (c === ':') {
      out.push(': ');
      i++;
    } else if (c === '"') {
      const end = stringEnd(s, i);
      out.push(s.slice(i, end));
      i = end;
    } else {
      const end = Math.max(i + 1, scalarEnd(s, i));
      out.push(s.slice(i, end));
      i = end;
    }
  }
  return out.join('');
}

/** A scalar token as table text: strings decoded, numbers and literals as written, null empty. */
function scalarText(raw: string): string {
  if (raw.startsWith('"')) return JSON.parse(raw) as string;
  return raw === 'null' ? '' : raw;
}

/**
 * Rows of a top-level array whose items are all objects of scalars (`[{"a": 1, "b": "x"}, …]`),
 * as key/value pairs in file order, or undefined for any other shape.
 */
export function flatRows(s: string): [string, string][][] | undefined {
  let i = 0;
  const skip = () => {
    while (i < s.length && WS.has(s.charCodeAt(i))) i++;
  };
  const scalar = (): string | undefined => {
    skip();
    const c = s[i];
    if (c === '{' || c === '[' || c === undefined) return undefined;
    const end = c === '"' ? stringEnd(s, i) : scalarEnd(s, i);
    const raw = s.slice(i, end);
    i = end;
    return scalarText(raw);
  };
  skip();
  if (s[i] !== '[') return undefined;
  i++;
  const rows: [string, string][][] = [];
  for (;;) {
    skip();
    if (s[i] === ']') break;
    if (s[i] !== '{') return undefined;
    i++;
    const fields: [string, string][] = [];
    for (;;) {
      skip();
      if (s[i] === '}') break;
      if (s[i] !== '"') return undefined;
      const end = stringEnd(s, i);
      const key = JSON.parse(s.slice(i, end)) as string;
      i = end;
      skip();
      i++; // ':'
      const value = scalar();
      if (value === undefined) return undefined;
      fields.push([key, value]);
      skip();
      if (s[i] === ',') i++;
    }
    i++; // '}'
    rows.push(fields);
    skip();
    if (s[i] === ',') i++;
  }
  return rows.length ? rows : undefined;
}

/** One object of scalars (a JSON Lines record) as key/value pairs, or undefined. */
export function flatObject(s: string): [string, string][] | undefined {
  return flatRows(`[${s}]`)?.[0];
}
