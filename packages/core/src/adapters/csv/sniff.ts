import { isBlankRecord, readRecords } from './records.ts';

/** Candidates in order of preference when two explain the sample equally well. */
const CANDIDATES = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof CANDIDATES)[number];

/** Records examined per candidate; enough to see a pattern, cheap on huge files. */
const SAMPLE_RECORDS = 50;
/** Text examined, so sniffing costs the same on a 50 MB file and on pathological quoting. */
const SAMPLE_CHARS = 1 << 20;
/** Fields kept per sampled record; only their count matters here. */
const MAX_FIELDS = 16_385;

interface Score {
  delimiter: Delimiter;
  /** Most common field count (ties go to the larger count). */
  width: number;
  /** Share of sampled records that have exactly `width` fields. */
  consistency: number;
}

function score(text: string, delimiter: Delimiter): Score {
  const widths: number[] = [];
  // Field counts above the column cap all look alike to the caller, so they need not be kept.
  for (const fields of readRecords(text.slice(0, SAMPLE_CHARS), delimiter.charCodeAt(0), undefined, MAX_FIELDS)) {
    if (isBlankRecord(fields)) continue;
    widths.push(fields.length);
    if (widths.length >= SAMPLE_RECORDS) break;
  }
  // A record cut by the sample's end has a meaningless field count.
  if (text.length > SAMPLE_CHARS && widths.length < SAMPLE_RECORDS && widths.length > 1) widths.pop();
  const counts = new Map<number, number>();
  for (const w of widths) counts.set(w, (counts.get(w) ?? 0) + 1);
  let width = 0;
  let best = 0;
  for (const [w, c] of counts) {
    if (c > best || (c === best && w > width)) {
      width = w;
      best = c;
    }
  }
  return { delimiter, width, consistency: widths.length ? best / widths.length : 0 };
}

/**
 * The delimiter whose quote-aware split of the first records gives the most consistent field
 * count above one; undefined when none splits the records (a single-column file).
 */
export function sniffDelimiter(text: string): Delimiter | undefined {
  let chosen: Score | undefined;
  for (const delimiter of CANDIDATES) {
    const s = score(text, delimiter);
    if (s.width < 2) continue;
    if (
      !chosen ||
      s.consistency > chosen.consistency + 1e-9 ||
      (Math.abs(s.consistency - chosen.consistency) <= 1e-9 && s.width > chosen.width)
    ) {
      chosen = s;
    }
  }
  return chosen?.delimiter;
}
