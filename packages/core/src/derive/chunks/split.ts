import type { Counter } from './counter.ts';
import { levels, lineRanges, type Range, safeCut } from './segments.ts';

/**
 * One piece of a block too long for the budget. `text` is the piece's Markdown: a slice of the
 * block, with the table's header row (or the code fence) around it for table and code parts.
 * `start`/`end` is the slice of the block it comes from.
 */
export interface Part {
  text: string;
  start: number;
  end: number;
  tokens: number;
}

/** Text repeated around every part: a table's header row, a code block's fences. */
interface Frame {
  before: string;
  after: string;
  tokens: number;
}

interface Ctx {
  text: string;
  counter: Counter;
  budget: number;
  /** Budget of the first part, which may have to fit behind what the chunk already holds. */
  firstBudget: number;
  /** Around every part (header row, fences). */
  frame?: Frame;
  /** Around the first part instead (a table's caption with its header row). */
  firstFrame?: Frame;
  out: Part[];
  /** Throws when the work must stop; called every few hundred ranges. */
  check: () => void;
}

const CHECK_EVERY = 256;

const budgetOf = (ctx: Ctx) => (ctx.out.length ? ctx.budget : ctx.firstBudget);
const frameOf = (ctx: Ctx) => (ctx.out.length ? ctx.frame : (ctx.firstFrame ?? ctx.frame));
const framed = (ctx: Ctx, inner: string) => {
  const f = frameOf(ctx);
  return f ? `${f.before}${inner}${f.after}` : inner;
};

function emit(ctx: Ctx, start: number, end: number, tokens?: number): void {
  const raw = ctx.text.slice(start, end);
  const lead = raw.length - raw.trimStart().length;
  const inner = raw.trim();
  if (!inner) return;
  const text = framed(ctx, inner);
  const s = start + lead;
  ctx.out.push({ text, start: s, end: s + inner.length, tokens: tokens ?? ctx.counter.count(text) });
}

/** The longest prefix of `[start, end)` within the budget, cut at code points (a word longer than the budget). */
function cutChars(ctx: Ctx, start: number, end: number): void {
  while (start < end) {
    ctx.check();
    const budget = budgetOf(ctx);
    const fits = (len: number) => ctx.counter.within(framed(ctx, ctx.text.slice(start, start + len)), budget) !== false;
    // Grow until it no longer fits, then bisect: a few counts of at most twice the part's length.
    let lo = 0;
    let hi = Math.min(end - start, Math.max(1, budget));
    while (hi < end - start && fits(hi)) {
      lo = hi;
      hi = Math.min(end - start, hi * 2);
    }
    if (hi === end - start && fits(hi)) lo = hi;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (fits(mid)) lo = mid;
      else hi = mid;
    }
    if (lo === 0) {
      // Not even one character fits behind what the chunk holds: start the part afresh.
      if (!ctx.out.length && ctx.firstBudget < ctx.budget) {
        ctx.firstBudget = ctx.budget;
        continue;
      }
      throw new TokenizerError();
    }
    const cut = Math.max(safeCut(ctx.text, start + lo), start + 1);
    emit(ctx, start, cut);
    start = cut;
  }
}

/** A tokenizer that counts one character (with the header row or fences around it) above the budget. */
export class TokenizerError extends Error {
  constructor() {
    super('The tokenizer counts a single character above maxTokens; no chunk can hold it.');
  }
}

/**
 * Packs consecutive ranges into parts of at most the budget. A range too long by itself is cut at
 * the next finer level (paragraphs, lines, sentences, words, then characters).
 */
function packRanges(ctx: Ctx, ranges: Range[], level: number): void {
  const { text, counter } = ctx;
  // Ranges as they sit in the text: where every seam inside a part is clean, the part's count is
  // their sum (its first and last range counted again trimmed), without counting the part.
  const sizes = ranges.map(([s, e], k) => {
    if (k % CHECK_EVERY === 0) ctx.check();
    return counter.count(text.slice(s, e));
  });
  const clean = ranges.map(([s], k) => k > 0 && counter.seam(text, s));
  const exact = (i: number, j: number): number | undefined => {
    const frame = frameOf(ctx);
    // A header row ends in a newline and rows start with "|": the same seam as between rows.
    if (
      frame &&
      (frame.after ||
        !counter.seam(
          `${frame.before}${text
            .slice((ranges[i] as Range)[0])
            .trimStart()
            .slice(0, 2)}`,
          frame.before.length,
        ))
    )
      return undefined;
    for (let k = i + 1; k < j; k++) if (!clean[k]) return undefined;
    const [s, e] = ranges[i] as Range;
    if (j === i + 1) return (frame?.tokens ?? 0) + counter.count(text.slice(s, e).trim());
    let n = (frame?.tokens ?? 0) + counter.count(text.slice(s, e).trimStart());
    for (let k = i + 1; k < j - 1; k++) n += sizes[k] as number;
    const [ls, le] = ranges[j - 1] as Range;
    return n + counter.count(text.slice(ls, le).trimEnd());
  };
  let i = 0;
  while (i < ranges.length) {
    if (ctx.out.length % CHECK_EVERY === 0) ctx.check();
    const budget = budgetOf(ctx) - (frameOf(ctx)?.tokens ?? 0);
    let j = i;
    let estimate = 0;
    while (j < ranges.length && estimate + (sizes[j] as number) <= budget) {
      estimate += sizes[j] as number;
      j++;
    }
    // Counts of pieces do not quite add up (BPE merges across the joints): check, and give back
    // the last range until the part really fits.
    while (j > i) {
      const start = (ranges[i] as Range)[0];
      const end = (ranges[j - 1] as Range)[1];
      const known = exact(i, j);
      const n =
        known === undefined
          ? counter.within(framed(ctx, text.slice(start, end).trim()), budgetOf(ctx))
          : known <= budgetOf(ctx)
            ? known
            : false;
      if (n !== false) {
        emit(ctx, start, end, n);
        break;
      }
      j--;
    }
    if (j === i && !ctx.out.length && ctx.firstBudget < ctx.budget && (sizes[i] as number) > 0) {
      // Not one whole row, item or sentence fits behind what the chunk holds: rather than cut it,
      // the part starts a chunk of its own.
      ctx.firstBudget = ctx.budget;
      continue;
    }
    if (j === i) {
      const [s, e] = ranges[i] as Range;
      if ((sizes[i] as number) > 0 && !alone(ctx, s, e)) cutRange(ctx, s, e, level + 1);
      j = i + 1;
    }
    i = j;
  }
}

/**
 * A row (or line) too long to go with the header row (or fences), though not for a part of its own,
 * goes whole without them: a row is never cut while it fits. True when it was emitted so.
 */
function alone(ctx: Ctx, start: number, end: number): boolean {
  if (!frameOf(ctx)) return false;
  const n = ctx.counter.within(ctx.text.slice(start, end).trim(), budgetOf(ctx));
  if (n === false) return false;
  const { frame, firstFrame } = ctx;
  ctx.frame = undefined;
  ctx.firstFrame = undefined;
  emit(ctx, start, end, n);
  ctx.frame = frame;
  ctx.firstFrame = firstFrame;
  return true;
}

/** Cuts `[start, end)` of the block at `level` and finer. */
function cutRange(ctx: Ctx, start: number, end: number, level: number): void {
  for (let l = Math.max(0, level); l < levels.length; l++) {
    const local = (levels[l] as (t: string) => Range[])(ctx.text.slice(start, end));
    if (local.length > 1) {
      packRanges(
        ctx,
        local.map(([s, e]) => [s + start, e + start]),
        l,
      );
      return;
    }
  }
  cutChars(ctx, start, end);
}

const SEPARATOR_ROW = /^\|(?:\s*:?-{3,}:?\s*\|)+\s*$/;
const ITEM_START = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;

/** Line ranges at which `test` is true start a new range (list items at column 0). */
function groupLines(text: string, test: (line: string) => boolean): Range[] {
  const out: Range[] = [];
  for (const [s, e] of lineRanges(text)) {
    const last = out[out.length - 1];
    if (last && !test(text.slice(s, e))) last[1] = e;
    else out.push([s, e]);
  }
  return out;
}

const LINE_LEVEL = 1;

/** A header row whose cells (two or more) all say the same: a title spanning the table. */
function isTitleRow(line: string): boolean {
  const cells = line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
  return cells.length > 1 && cells[0] !== '' && cells.every((c) => c === cells[0]);
}

/** A table by rows, its header row (and separator) repeated at the top of every part. */
function splitTable(ctx: Ctx): boolean {
  const lines = lineRanges(ctx.text);
  const sep = lines.findIndex(([s, e]) => SEPARATOR_ROW.test(ctx.text.slice(s, e).trim()));
  if (sep < 1 || sep === lines.length - 1) return false;
  const headerStart = (lines[sep - 1] as Range)[0];
  // A title merged over every column (rendered as the same text in each) is not the header the
  // reader needs: the row of column names under it goes along.
  const titled = isTitleRow(ctx.text.slice(...(lines[sep - 1] as Range))) && lines.length > sep + 2;
  const headerEnd = (lines[titled ? sep + 1 : sep] as Range)[1];
  const header = `${ctx.text.slice(headerStart, headerEnd).trimEnd()}\n`;
  const frame: Frame = { before: header, after: '', tokens: ctx.counter.count(header) };
  // A header taking most of the budget is not repeated: the table is cut by rows like lines of text.
  if (frame.tokens * 4 > ctx.budget * 3) return false;
  ctx.frame = frame;
  const rows = lines.slice(titled ? sep + 2 : sep + 1);
  if (headerStart > 0) {
    // The caption goes with the first rows when they fit together, otherwise by itself.
    const caption = ctx.text.slice(0, headerStart).trim();
    const before = `${caption}\n\n${header}`;
    const firstFrame: Frame = { before, after: '', tokens: ctx.counter.count(before) };
    const firstRow = ctx.text.slice(...(rows[0] as Range)).trim();
    if (ctx.counter.within(`${before}${firstRow}`, ctx.budget) !== false) {
      ctx.firstFrame = firstFrame;
      const firstRows = ctx.out.length;
      packRanges(ctx, rows, LINE_LEVEL);
      leadFirst(ctx, firstRows, before, 0, headerStart + header.trimEnd().length);
      return true;
    }
    ctx.frame = undefined;
    cutRange(ctx, 0, headerStart, 0);
    ctx.frame = frame;
  }
  const firstRows = ctx.out.length;
  packRanges(ctx, rows, LINE_LEVEL);
  leadFirst(ctx, firstRows, header, headerStart, headerStart + header.trimEnd().length);
  return true;
}

/**
 * The table's start (its caption and header row) comes first, as in the document: in the first
 * rows part, whose range then begins there; or, when that part is a row too long to go with it,
 * by itself ahead of it.
 */
function leadFirst(ctx: Ctx, index: number, lead: string, start: number, end: number): void {
  const part = ctx.out[index];
  if (!part) return;
  if (part.text.startsWith(lead)) {
    part.start = start;
    return;
  }
  const text = lead.trimEnd();
  ctx.out.splice(index, 0, { text, start, end, tokens: ctx.counter.count(text) });
}

/** Fenced code (or `$$` math) by lines, each part fenced again. */
function splitFenced(ctx: Ctx): boolean {
  const lines = lineRanges(ctx.text);
  if (lines.length < 3) return false;
  const open = ctx.text.slice(...(lines[0] as Range)).trimEnd();
  const close = ctx.text.slice(...(lines[lines.length - 1] as Range)).trim();
  const frame: Frame = { before: `${open}\n`, after: `\n${close}`, tokens: ctx.counter.count(`${open}\n\n${close}`) };
  if (frame.tokens * 2 > ctx.budget) return false;
  ctx.frame = frame;
  packRanges(ctx, lines.slice(1, -1), LINE_LEVEL);
  return true;
}

/**
 * Cuts one block's Markdown into parts within the budget: a table by rows (header row repeated), a
 * list by items, code by lines, anything else at paragraphs, lines, sentences, then words.
 * `firstBudget` (≤ budget) bounds the first part.
 */
export function splitBlock(
  type: string,
  text: string,
  counter: Counter,
  budget: number,
  firstBudget = budget,
  check: () => void = () => undefined,
): Part[] {
  const ctx: Ctx = { text, counter, budget, firstBudget, out: [], check };
  if (type === 'table' && splitTable(ctx)) return ctx.out;
  if ((type === 'code' || type === 'math') && splitFenced(ctx)) return ctx.out;
  if (type === 'list') {
    const items = groupLines(text, (line) => ITEM_START.test(line));
    if (items.length > 1) {
      packRanges(ctx, items, -1);
      return ctx.out;
    }
  }
  cutRange(ctx, 0, text.length, 0);
  return ctx.out;
}
