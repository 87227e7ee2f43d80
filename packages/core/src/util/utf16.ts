/**
 * UTF-16 without a byte-order mark, told from its zero bytes. Apart from charset.ts so that format
 * detection, in core's entry, does not pull the text decoders and their guessing tables in.
 */

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
