/** List and outline labels as word processors draw them. */

const ROMAN: [number, string][] = [
  [1000, 'm'],
  [900, 'cm'],
  [500, 'd'],
  [400, 'cd'],
  [100, 'c'],
  [90, 'xc'],
  [50, 'l'],
  [40, 'xl'],
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
];

/** Lower-case roman numeral; numbers Roman numerals cannot write stay decimal. */
export function roman(n: number): string {
  if (!(n > 0 && n < 4000)) return String(n);
  let s = '';
  let v = Math.floor(n);
  for (const [k, r] of ROMAN) {
    while (v >= k) {
      s += r;
      v -= k;
    }
  }
  return s;
}

/** Word's alphabetic counting: a…z, then aa…zz, then aaa… (not spreadsheet-style ba, bb). */
export function letters(n: number): string {
  if (n <= 0) return String(n);
  const ch = String.fromCharCode(97 + ((n - 1) % 26));
  return ch.repeat(Math.floor((n - 1) / 26) + 1);
}
