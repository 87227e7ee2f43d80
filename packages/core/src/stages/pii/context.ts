/** True when `words` matches in the `window` characters before `index` (context-gated patterns). */
export function contextBefore(text: string, index: number, words: RegExp, window = 48): boolean {
  return words.test(text.slice(Math.max(0, index - window), index));
}

/** Runs a global regex over text and hands each match to `fn` (lastIndex reset for reuse). */
export function eachMatch(re: RegExp, text: string, fn: (m: RegExpExecArray) => void): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    fn(m);
    if (m[0].length === 0) re.lastIndex++;
  }
}
