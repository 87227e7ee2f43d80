/**
 * An e-mail's, a memo's or a letter's lines printed to PDF that are lines, not prose: the header
 * block ("From: …", "Sent: …", "To: …", "Subject: …") and the sign-off ("Kind regards," over the
 * sender's name, title and company), a line each, which read as prose ran into one paragraph.
 */

import { ENDS_SENTENCE, STARTS_LOWER, THREE_WORDS } from '../../util/letters.ts';
import { FULL_LINE, type Line, sameRow } from './lines.ts';
import { wordCount } from './tables/words.ts';

/** A line opening with a header's name and colon, as mail programs and memos print them; its group is the value. */
const HEADER = /^(?:From|To|Cc|Bcc|Sent|Date|Subject|Re|Ref|Reply-To|Importance|Attachments?)\s?:\s*(.*)$/i;
/** A header only a message or a memo has: "Date:" beside "Ref:" heads no message. */
const MESSAGE_HEADER = /^(?:From|To|Sent|Subject|Re)\s?:/i;
/** Fewest header lines one under the other that make a header block. */
const HEADER_LINES = 2;
/** Most a header's or a signature's line stands under the one above it, in sizes (a line's pitch, with room). */
const LINE_PITCH = 2;

/** Whether `l` stands under `prev` at a line's pitch at most. */
const tightUnder = (l: Line | undefined, prev: Line): l is Line =>
  l !== undefined && l.base > prev.base && l.base - prev.base <= LINE_PITCH * Math.max(l.size, prev.size);

/**
 * The line breaks a page's header blocks keep (two header lines or more one under the other at one
 * left edge, one of them a message's "From", "To", "Sent", "Subject" or a memo's "Re"): after each
 * header's last line, and after the line right above a block ("-----Original Message-----", a
 * paragraph ending there), so the block opens lines of its own; and those it lets join (`join`): a
 * header's value wrapped onto lines set in under it, where the header's line runs as far as the
 * block's widest, goes on with it. Not prose that names a sender or an addressee ("From: your
 * name and department"): a header's value opens with a name, an address, a date, a figure, but
 * for a memo's subject now and then ("Re: your letter of 3 March").
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
    const block = wrapsIn(lines.slice(i, j));
    const headers = block.filter((l) => HEADER.test(l.text));
    // A sentence going on under the block, at its pitch, ran through it.
    const last = block[block.length - 1] as Line;
    const below = lines[i + block.length];
    const goesOn =
      below !== undefined &&
      STARTS_LOWER.test(below.text) &&
      below.base > last.base &&
      below.base - last.base <= LINE_PITCH * last.size;
    // A sentence running into the block ("…, and mark them" over "From: your name"), or more than
    // half the values in prose: a sentence naming a sender and an addressee.
    const above = lines[i - 1];
    const tightAbove =
      above !== undefined && !sameRow(above, first) && first.base - above.base <= LINE_PITCH * first.size;
    const runsIn = tightAbove && THREE_WORDS.test(above.text) && !ENDS_SENTENCE.test(above.text.trim());
    const prose = goesOn || runsIn || headers.filter((l) => proseValue(l.text)).length * 2 > headers.length;
    if (headers.length >= HEADER_LINES && headers.some((l) => MESSAGE_HEADER.test(l.text)) && !prose) {
      if (tightAbove) keep.push(above);
      block.forEach((l, k) => {
        const next = block[k + 1];
        (!next || HEADER.test(next.text) ? keep : join).push(l);
      });
    }
    i += Math.max(1, block.length);
  }
  return { keep, join };
}

/**
 * Whether `l` may go on the header block `first` opens, right under `prev`: a header line at its
 * left edge, or a value's wrapped line set in past it (`wrapsIn` keeps only those under a full line).
 */
const underHeader = (l: Line, prev: Line, first: Line): boolean =>
  (HEADER.test(l.text) ? Math.abs(l.x0 - first.x0) <= first.size : l.x0 > first.x0 + first.size) && tightUnder(l, prev);

/**
 * The block up to its first line set in under a header's line that stops short of the block's
 * widest header: a value wraps only where its line is full, and a body set in under "Subject: Team
 * meeting" is the message's first line.
 */
function wrapsIn(block: Line[]): Line[] {
  let widest = 0;
  for (const l of block) if (HEADER.test(l.text)) widest = Math.max(widest, l.x1 - l.x0);
  const first = block[0] as Line;
  for (let k = 1; k < block.length; k++) {
    const l = block[k] as Line;
    const prev = block[k - 1] as Line;
    if (!HEADER.test(l.text) && prev.x1 - first.x0 < widest * FULL_LINE) return block.slice(0, k);
  }
  return block;
}

/**
 * Whether a header line's value reads as prose: words opening in lower case, no address in them
 * ("your name"; a user name alone, "ann.lee", is none).
 */
const proseValue = (text: string): boolean => {
  const value = (HEADER.exec(text)?.[1] ?? '').trim();
  return STARTS_LOWER.test(value) && !value.includes('@') && /\s/.test(value);
};

/** A letter's or message's closing, the whole line ("Kind regards,", "Thanks", "Yours sincerely,"). */
const CLOSING =
  /^(?:(?:Kind|Best|Warm|Warmest|Many|With)\s+(?:regards|wishes|thanks)|Regards|Thanks(?:\s+again)?|Thank\s+you|Cheers|Sincerely|Yours(?:\s+(?:sincerely|faithfully|truly))?|All\s+the\s+best|Best|Respectfully)\s*([,.!]?)$/;
/** Closings that stand without a comma, over a name ("Thanks" over "Bob"); "Best" alone does not. */
const BARE_CLOSING = /^(?:(?:Kind|Best|Warm|Warmest|Many|With)\s+|Thanks|Cheers|Regards|Sincerely|Yours\s)/;
/** A name under a closing: one to four words, each opening in a capital ("Bob", "Ann Lee", "Dr J. Smith"). */
const NAME = /^(?:\p{Lu}[\p{L}.'’-]*)(?:\s+\p{Lu}[\p{L}.'’-]*){0,3}$/u;
/** A signature's line going on in lower case that is no sentence's: an address, a web address. */
const CONTACT = /@|^(?:www\.|https?:)/i;
/** Most lines of a signature under a closing (name, title, company, telephone …). */
const SIGNATURE_LINES = 6;
/** Most words a signature's line holds. */
const SIGNATURE_WORDS = 6;

/**
 * The line breaks a sign-off keeps: before and after a closing line ("Kind regards,", or "Thanks"
 * over a name), and after each short line under it at its left edge and a line's pitch (a name, a
 * title, a company, an address), up to a longer line, a gap, or a line the next one goes on from
 * in lower case (a disclaimer's or a postscript's first line). A line that only reads like a
 * closing ("…we would like to say" / "thank you" / "to all the volunteers") is none: in lower case,
 * or with the sentence going on under it.
 */
export function signOffBreaks(lines: readonly Line[]): Line[] {
  const keep: Line[] = [];
  for (let i = 0; i < lines.length; i++) {
    const closing = lines[i] as Line;
    const text = closing.text.trim();
    const mark = CLOSING.exec(text);
    if (!mark) continue;
    const next = lines[i + 1];
    const under = tightUnder(next, closing) ? next : undefined;
    if (under && STARTS_LOWER.test(under.text)) continue;
    if (!mark[1] && !(BARE_CLOSING.test(text) && under && NAME.test(under.text.trim()))) continue;
    const above = lines[i - 1];
    if (above && tightUnder(closing, above)) keep.push(above);
    keep.push(closing);
    let prev = closing;
    for (let j = i + 1; j < lines.length && j <= i + SIGNATURE_LINES; j++) {
      const l = lines[j] as Line;
      if (
        !tightUnder(l, prev) ||
        Math.abs(l.x0 - closing.x0) > closing.size ||
        wordCount(l.text) > SIGNATURE_WORDS ||
        (STARTS_LOWER.test(l.text) && !CONTACT.test(l.text))
      )
        break;
      // A line the next goes on from in lower case opens a sentence: the signature ended above it.
      const below = lines[j + 1];
      if (tightUnder(below, l) && STARTS_LOWER.test(below.text) && !CONTACT.test(below.text)) break;
      keep.push(l);
      prev = l;
    }
  }
  return keep;
}
