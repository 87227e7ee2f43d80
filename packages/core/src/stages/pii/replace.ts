import type { PiiSpan } from './types.ts';

export type ReplaceStyle = 'tag' | 'mask' | 'remove';

/** Marks where `remove` took text out, so spacing can be tidied once the whole run is known. */
export const REMOVED = '\u0000';

export const placeholder = (s: PiiSpan): string => `<${s.entity}>`;

/** What one piece of a span becomes; `first` is false for the later pieces of a span split across runs. */
export function replacement(s: PiiSpan, piece: string, style: ReplaceStyle, first: boolean): string {
  if (style === 'mask') return '*'.repeat([...piece].length);
  if (style === 'remove') return REMOVED;
  return first ? placeholder(s) : '';
}

/**
 * Closes the gaps `remove` leaves: one space where spaces stood on both sides, none before
 * punctuation or at either end.
 */
export function tidyRemoved(s: string): string {
  if (!s.includes(REMOVED)) return s;
  return s.replace(/([ \t]*)\u0000+([ \t]*)/g, (_m, before: string, after: string, offset: number, all: string) => {
    const end = offset + _m.length;
    const next = all[end] ?? '';
    if (offset === 0 || end === all.length || /[,.;:!?)\]]/.test(next)) return '';
    return before || after ? ' ' : '';
  });
}

/** Replaces spans (sorted, non-overlapping, offsets into `text`) in a plain string. */
export function replaceInString(text: string, spans: readonly PiiSpan[], style: ReplaceStyle): string {
  let out = '';
  let pos = 0;
  for (const s of spans) {
    if (s.start < pos) continue;
    out += text.slice(pos, s.start) + replacement(s, text.slice(s.start, s.end), style, true);
    pos = s.end;
  }
  return tidyRemoved(out + text.slice(pos));
}
