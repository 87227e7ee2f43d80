import type { PiiEntity, PiiSpan } from '@docmill/core';
import type { ParsedLabel } from './labels.ts';

export interface Word {
  text: string;
  start: number;
  end: number;
}

// BERT-style pre-tokenisation: runs of letters (with marks and inner apostrophes), runs of digits,
// and every other non-space character alone. Offsets are kept, so labels map back to characters.
const WORD = /[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*|\p{N}+|[^\s\p{L}\p{M}\p{N}]/gu;

export function splitWords(text: string): Word[] {
  const out: Word[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m; m = WORD.exec(text))
    out.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}

export interface Window {
  /** First and one-past-last token of the window. */
  start: number;
  end: number;
  /** Tokens whose labels this window decides (the overlap is split at its middle). */
  ownStart: number;
  ownEnd: number;
}

/**
 * Overlapping windows over `count` tokens. Each token is decided by exactly one window, the one in
 * which it sits farthest from an edge, so an entity cut by one window's edge is seen whole in the
 * neighbouring one.
 */
export function windows(count: number, size: number, overlap: number): Window[] {
  if (count <= size) return [{ start: 0, end: count, ownStart: 0, ownEnd: count }];
  const step = Math.max(1, size - overlap);
  const out: Window[] = [];
  for (let start = 0; ; start += step) {
    const end = Math.min(count, start + size);
    out.push({ start, end, ownStart: start, ownEnd: end });
    if (end === count) break;
  }
  for (let i = 1; i < out.length; i++) {
    const prev = out[i - 1] as Window;
    const cur = out[i] as Window;
    const middle = Math.floor((cur.start + prev.end) / 2);
    prev.ownEnd = middle;
    cur.ownStart = middle;
  }
  return out;
}

/**
 * Word labels → character spans. A span starts at a B- word (or an I- word after a different
 * bucket) and grows over I- words of its bucket; pieces of one bucket separated only by spaces
 * are joined ("B-FIRSTNAME B-LASTNAME" is one person).
 */
export function mergeWords(text: string, words: readonly Word[], labels: readonly ParsedLabel[]): PiiSpan[] {
  const spans: PiiSpan[] = [];
  let current: PiiSpan | undefined;
  let lastLabel: ParsedLabel | undefined;
  words.forEach((w, i) => {
    const label = labels[i] as ParsedLabel;
    if (!label.entity) {
      current = undefined;
      lastLabel = label;
      return;
    }
    const gap = current ? text.slice(current.end, w.start) : '';
    const continues =
      current !== undefined &&
      current.entity === label.entity &&
      /^[ \t]*$/.test(gap) &&
      (label.position === 'I' || gap === '' || lastLabel?.base !== label.base);
    if (continues && current) current.end = w.end;
    else {
      current = { start: w.start, end: w.end, entity: label.entity as PiiEntity, validated: true, source: 'model' };
      spans.push(current);
    }
    lastLabel = label;
  });
  return spans;
}
