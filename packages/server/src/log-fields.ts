/** Longest string a log record carries; longer ones are cut and say so. */
export const MAX_LOG_STRING = 256;

/**
 * Cuts a string for a log line: a 20 MB file name or a hostile path must not make a 20 MB log
 * line. The mark keeps the original length, so a reader knows what was cut.
 */
export function capLogString(s: string, max = MAX_LOG_STRING): string {
  if (s.length <= max) return s;
  // Cut on a code point boundary: half a surrogate pair would be invalid UTF-8 in the log.
  let end = max;
  const code = s.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${s.slice(0, end)}…[cut, ${s.length} chars]`;
}

/** Every string field of a log record capped (records are flat: strings, numbers, null). */
export function capLogRecord<T extends object>(record: T): T {
  const out = { ...record } as Record<string, unknown>;
  for (const [k, v] of Object.entries(out)) if (typeof v === 'string') out[k] = capLogString(v);
  return out as T;
}
