/**
 * An e-mail's header block printed to PDF ("From: …", "Sent: …", "To: …", "Subject: …"): a line each,
 * which read as prose ran into one paragraph.
 */

import { type Line, sameRow } from './lines.ts';

/** A line opening with a header's name and colon, as mail programs print them. */
const HEADER = /^(?:From|To|Cc|Bcc|Sent|Date|Subject|Reply-To|Importance|Attachments?)\s?:/i;
/** A header only a message has: a memo's "Date:" and "To:" alone are a memo's head, kept too. */
const MESSAGE_HEADER = /^(?:From|To|Sent|Subject)\s?:/i;
/** Fewest header lines one under the other that make a header block. */
const HEADER_LINES = 2;
/** Most a header line stands under the one above it, in sizes. */
const HEADER_PITCH = 2;

/**
 * The line breaks a page's header blocks keep (two header lines or more one under the other at one
 * left edge, one of them a message's "From", "To", "Sent" or "Subject"): after each header's last
 * line, and after the line right above a block ("-----Original Message-----", a paragraph ending
 * there), so the block opens lines of its own; and those it joins (`join`): a header's value
 * wrapped onto lines set in under it goes on with it, in a typewriter face too.
 */
export function headerBreaks(lines: readonly Line[]): { keep: Line[]; join: Line[] } {
  const keep: Line[] = [];
  const join: Line[] = [];
  for (let i = 0; i < lines.length; ) {
    const first = lines[i] as Line;
    if (!HEADER.test(first.text)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < lines.length && underHeader(lines[j] as Line, lines[j - 1] as Line, first)) j++;
    const block = lines.slice(i, j);
    const headers = block.filter((l) => HEADER.test(l.text));
    if (headers.length >= HEADER_LINES && headers.some((l) => MESSAGE_HEADER.test(l.text))) {
      const above = lines[i - 1];
      if (above && !sameRow(above, first) && first.base - above.base <= HEADER_PITCH * first.size) keep.push(above);
      block.forEach((l, k) => {
        const next = block[k + 1];
        (!next || HEADER.test(next.text) ? keep : join).push(l);
      });
    }
    i = j;
  }
  return { keep, join };
}

/**
 * Whether `l` goes on the header block `first` opens, right under `prev`: a header line at its left
 * edge, or a value's wrapped line set in past it.
 */
const underHeader = (l: Line, prev: Line, first: Line): boolean =>
  (HEADER.test(l.text) ? Math.abs(l.x0 - first.x0) <= first.size : l.x0 > first.x0 + first.size) &&
  l.base > prev.base &&
  l.base - prev.base <= HEADER_PITCH * Math.max(l.size, prev.size);
