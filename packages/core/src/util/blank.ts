/**
 * Whether a UTF-16 code unit is one that `\s` matches (white space and line ends as ECMAScript has
 * them): the scans that stand in for a `\s` pattern in hot loops (tokenizer seams, table words) test
 * one unit at a time. Checked against the pattern for every unit in the chunks tests.
 */
export function isBlank(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
