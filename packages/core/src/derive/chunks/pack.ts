import { unionBox } from '../../tree/boxes.ts';
import type { BBox } from '../../tree/types.ts';
import { nextTask } from '../../util/task.ts';
import type { Counter } from './counter.ts';
import { sentenceRanges, wordRanges } from './segments.ts';
import type { Scope, SourceBlock } from './source.ts';
import { splitBlock } from './split.ts';
import type { Chunk, ChunkBox, ChunkType } from './types.ts';

export interface PackOptions {
  maxTokens: number;
  overlapTokens: number;
  counter: Counter;
  /** Throws when the work must stop (the caller's abort, the parse deadline); called often, cheaply. */
  check?: () => void;
}

/** A whole block, or a part of one, on its way into a chunk. */
interface Piece {
  text: string;
  tokens: number;
  block: SourceBlock;
  /** Range of `data.markdown` the piece comes from. */
  start?: number;
  end?: number;
  heading: boolean;
  /** The heading path in force at the piece (a heading's own text included). */
  path: string[];
  /** Tokens kept for the heading path contextualize() puts before a chunk this piece starts. */
  reserve: number;
  /** A part after the first of a block cut in parts. */
  continuation: boolean;
}

interface Draft {
  pieces: Piece[];
  /** Exact tokens of the pieces joined. */
  tokens: number;
}

/** Joins pieces within a chunk, as blocks are joined in `data.markdown`. */
const JOIN = '\n\n';
const CHECK_EVERY = 256;

/** A heading's text without its Markdown: `## **Q3** [results](x)` → `Q3 results`. */
export function headingText(md: string): string {
  return md
    .replace(/^#{1,6}[ \t]*/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<\/?(?:sup|sub|br)>/g, '')
    .replace(/(?<!\\)(?:\*\*|~~|\*|__)/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Slides, sheets and chapters are units of their own; pages are not (text flows over them). */
const FLOWING = new Set(['page', 'document', 'message', 'attachment', 'file', 'item']);
/**
 * Pages flow into each other; slides, sheets and chapters do not. A document inside a document (an
 * archive member, an attachment) flows from its own heading into its pages, never into the next one.
 */
const scopeKey = (s: Scope) => {
  const own = FLOWING.has(s.kind) ? 'flow' : `${s.kind}:${s.number}`;
  return s.within ? `${s.within.join('\u0000')}\u0000${own}` : own;
};

function typeOf(pieces: readonly Piece[]): ChunkType {
  const kinds = new Set<ChunkType>();
  for (const p of pieces) {
    if (p.heading) continue;
    const t = p.block.type;
    kinds.add(t === 'table' || t === 'list' || t === 'code' || t === 'image' ? t : 'text');
  }
  if (kinds.size > 1) return 'mixed';
  return kinds.values().next().value ?? 'text';
}

type Place = { page: number; bbox?: BBox };

/** Where each later page's part of a block starts in its text, found once a block. */
const partStarts = new WeakMap<SourceBlock, number[]>();

/**
 * Where the parts of a block continued on later pages start in its text: a paragraph's part at its
 * offset, a table's rows at the start of their line.
 */
function startsOf(b: SourceBlock): number[] {
  const known = partStarts.get(b);
  if (known) return known;
  const starts: number[] = [];
  let line = 0;
  let at = 0;
  for (const part of b.continued ?? []) {
    if (part.offset !== undefined) {
      starts.push(part.offset);
      continue;
    }
    while (line < part.line) {
      const nl = b.text.indexOf('\n', at);
      if (nl < 0) break;
      at = nl + 1;
      line++;
    }
    starts.push(at);
  }
  partStarts.set(b, starts);
  return starts;
}

/**
 * The pages (and boxes) a piece covers: its block's, or for part of a block continued on later
 * pages (a table's rows, a paragraph a page break cut), those of the parts its text overlaps.
 */
function placesOf(p: Piece): Place[] {
  const b = p.block;
  if (b.page === undefined) return [];
  const first: Place = b.bbox ? { page: b.page, bbox: b.bbox } : { page: b.page };
  if (!b.continued || p.start === undefined || p.end === undefined || b.start === undefined) return [first];
  const from = p.start - b.start;
  const to = p.end - b.start;
  const starts = startsOf(b);
  const places: Place[] = [];
  let current = first;
  let start = 0;
  b.continued.forEach((part, k) => {
    const at = starts[k] as number;
    if (start < to && at > from) places.push(current);
    current = part.bbox ? { page: part.pageNumber, bbox: part.bbox } : { page: part.pageNumber };
    start = at;
  });
  if (start < to || !places.length) places.push(current);
  return places;
}

function provenance(chunk: Chunk, pieces: readonly Piece[]): void {
  const pages = new Set<number>();
  const boxes = new Map<number, BBox>();
  const ids: string[] = [];
  let start: number | undefined;
  let end: number | undefined;
  let offsets = true;
  for (const p of pieces) {
    const b = p.block;
    for (const place of placesOf(p)) {
      pages.add(place.page);
      if (!place.bbox) continue;
      const box = boxes.get(place.page);
      boxes.set(place.page, box ? unionBox(box, place.bbox) : place.bbox);
    }
    if (b.id && ids[ids.length - 1] !== b.id) ids.push(b.id);
    if (p.start === undefined || p.end === undefined) offsets = false;
    else {
      start = start === undefined ? p.start : Math.min(start, p.start);
      end = end === undefined ? p.end : Math.max(end, p.end);
    }
  }
  const scope = (pieces[0] as Piece).block.scope;
  if (pages.size) chunk.pages = [...pages].sort((x, y) => x - y);
  if (scope.kind === 'sheet' && scope.name !== undefined) chunk.sheet = scope.name;
  if (scope.kind === 'chapter') {
    chunk.chapter = scope.number;
    if (scope.name) chunk.chapterTitle = scope.name;
  }
  if (scope.within) chunk.within = scope.within;
  if (boxes.size) chunk.bbox = [...boxes].map(([page, bbox]): ChunkBox => ({ page, bbox }));
  if (offsets && start !== undefined && end !== undefined) {
    chunk.startOffset = start;
    chunk.endOffset = end;
  }
  if (ids.length) chunk.blocks = ids;
}

/**
 * The end of the previous chunk repeated before the next: whole sentences when they fit, words
 * otherwise. Tables and code repeat nothing (a table part repeats its header row instead).
 */
function overlapText(prev: Piece, limit: number, counter: Counter): string {
  const t = prev.block.type;
  if (limit <= 0 || t === 'table' || t === 'code' || t === 'math' || t === 'image') return '';
  const text = prev.text;
  for (const ranges of [sentenceRanges(text), wordRanges(text)]) {
    let from = ranges.length;
    let tail = '';
    while (from > 0) {
      const next = text.slice((ranges[from - 1] as [number, number])[0]).trim();
      if (counter.within(next, limit) === false) break;
      tail = next;
      from--;
    }
    if (tail) return tail;
  }
  return '';
}

/** Whole-block counts are skipped beyond this many characters per budget token: such a block is cut anyway. */
const CHARS_PER_TOKEN_CAP = 6;

/** Milliseconds of synchronous work between task turns, so timers (the parse timeout) can fire. */
const TURN_MS = 25;

/** Awaited between blocks: a task turn now and then, and the stop check. */
function turns(check: () => void): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last > TURN_MS) {
      await nextTask();
      last = performance.now();
    }
    check();
  };
}

/**
 * Tokens of each block when it fits the budget (false when it does not). Counted once, before
 * packing, so a heading can see whether the section it opens fits.
 */
async function blockTokens(
  blocks: readonly SourceBlock[],
  counter: Counter,
  budget: number,
  turn: () => Promise<void>,
) {
  const out: (number | false)[] = [];
  for (let i = 0; i < blocks.length; i++) {
    if (i % CHECK_EVERY === 0) await turn();
    const b = blocks[i] as SourceBlock;
    out.push(b.text.length <= budget * CHARS_PER_TOKEN_CAP ? counter.within(b.text, budget) : false);
  }
  return out;
}

/**
 * Cuts the blocks into chunks. A heading starts a chunk, unless the whole section it opens (to the
 * next heading) fits in what is left of the current one and sits no higher in the outline than
 * where that chunk started: short sections then share a chunk instead of each making a small one.
 * Small blocks merge up to the budget; a long block is cut (split.ts).
 */
export async function packChunks(blocks: readonly SourceBlock[], opts: PackOptions): Promise<Chunk[]> {
  const { counter, maxTokens, overlapTokens } = opts;
  const check = opts.check ?? (() => undefined);
  const turn = turns(check);
  const budget = maxTokens - overlapTokens;
  const sep = counter.count(JOIN);
  const sizes = await blockTokens(blocks, counter, budget, turn);
  const drafts: Draft[] = [];
  let stack: { depth: number; text: string }[] = [];
  let cur: Piece[] = [];
  let curTokens = 0;
  /** `curTokens` is the exact count of the pieces joined (known joints), not an estimate. */
  let curExact = true;
  /** Outline depth where the current chunk starts (0 before any heading). */
  let anchor = 0;
  let scope: string | undefined;

  /**
   * The heading path contextualize() puts before a chunk that starts with a piece (the headings its
   * text does not show) counts against the budget too: the contextualized text fits as well, unless
   * the path alone would take more than a quarter of it.
   */
  const reserveFor = (headings: readonly string[]): number => {
    if (!headings.length) return 0;
    const shown = headings.join('\n');
    // Exact when the tokenizer tells what the blank line costs after the path whatever text follows
    // (its joint to a text starting with "/", the one case it cannot, is known). Otherwise, and with
    // an overlap (whose joint to the chunk costs a token the budget did not see), one token more.
    const exact = overlapTokens === 0 && counter.joint(shown, '/') !== undefined;
    return Math.min(counter.count(`${shown}${JOIN}`) + (exact ? 0 : 1), Math.floor(maxTokens / 4));
  };
  /** The path in force and its reserves, for a block under it and for a heading (itself left out): set when the outline moves. */
  let path: string[] = [];
  let reserveUnder = 0;
  let reserveOfHeading = 0;
  const outlineMoved = () => {
    path = stack.map((h) => h.text);
    reserveUnder = reserveFor(path);
    reserveOfHeading = reserveFor(path.slice(0, -1));
  };
  /** The budget of the chunk being filled: `budget` less its context's reserve. */
  let chunkBudget = budget;

  const take = (n: number, tokens: number) => {
    drafts.push({ pieces: cur.slice(0, n), tokens });
    const rest = cur.slice(n);
    cur = [];
    curTokens = 0;
    curExact = true;
    for (const p of rest) add(p);
  };
  /**
   * Emits the current chunk; an estimated one is counted, giving back trailing pieces until it fits.
   * Headings at its end go with the next chunk (`carry`): a heading belongs with what it heads. An
   * empty section's heading (the next heading is as high) stays where it is.
   */
  const flushOne = (carry = true) => {
    let last = cur.length;
    while (carry && last > 1 && (cur[last - 1] as Piece).heading && !cur.slice(0, last - 1).every((p) => p.heading))
      last--;
    if (curExact && last === cur.length) return take(cur.length, curTokens);
    for (let n = last; n > 1; n--) {
      const tokens = counter.within(
        cur
          .slice(0, n)
          .map((p) => p.text)
          .join(JOIN),
        chunkBudget,
      );
      if (tokens !== false) return take(n, tokens);
    }
    take(1, (cur[0] as Piece).tokens);
  };
  /** Emits all of the current chunk; carried headings stay to open the next one. */
  const flush = (carry = true) => {
    while (cur.length && !(carry && onlyHeadings())) flushOne(carry);
  };
  const jointCost = (p: Piece): { cost: number; exact: boolean } => {
    const last = cur[cur.length - 1];
    if (!last) return { cost: 0, exact: true };
    const j = counter.joint(last.text, p.text);
    return j === undefined ? { cost: sep, exact: false } : { cost: j, exact: true };
  };
  function add(p: Piece): void {
    let { cost, exact } = jointCost(p);
    if (cur.length && curTokens + cost + p.tokens > chunkBudget) {
      flushOne();
      ({ cost, exact } = jointCost(p));
    }
    if (!cur.length) {
      anchor = p.heading ? (p.block.depth ?? 0) : (stack[stack.length - 1]?.depth ?? 0);
      chunkBudget = budget - p.reserve;
    }
    curTokens += cost + p.tokens;
    curExact &&= exact;
    cur.push(p);
  }
  const onlyHeadings = () => cur.every((p) => p.heading);
  /**
   * Tokens of the section a heading at `index` opens, its subsections included (up to the next
   * heading as high or higher, or the end of the slide, sheet or chapter), or false past the budget.
   */
  const sectionTokens = (index: number): number | false => {
    let total = 0;
    const first = blocks[index] as SourceBlock;
    const key = scopeKey(first.scope);
    for (let i = index; i < blocks.length; i++) {
      const b = blocks[i] as SourceBlock;
      const closes = b.type === 'heading' && (b.depth ?? 0) <= (first.depth ?? 0);
      if (i > index && (closes || scopeKey(b.scope) !== key)) break;
      const n = sizes[i];
      if (n === false || n === undefined) return false;
      total += n + (i > index ? sep : 0);
      if (total > budget) return false;
    }
    return total;
  };

  for (let index = 0; index < blocks.length; index++) {
    if (index % CHECK_EVERY === 0) await turn();
    const block = blocks[index] as SourceBlock;
    const key = scopeKey(block.scope);
    if (key !== scope) {
      flush(false);
      if (key !== 'flow' || (scope !== undefined && scope !== 'flow')) {
        stack = [];
        outlineMoved();
      }
      scope = key;
    }
    const heading = block.type === 'heading' && block.depth !== undefined;
    if (heading) {
      const depth = block.depth as number;
      while (stack.length && (stack[stack.length - 1] as { depth: number }).depth >= depth) stack.pop();
      stack.push({ depth, text: headingText(block.text) });
      outlineMoved();
      if (!onlyHeadings()) {
        const section = depth >= anchor ? sectionTokens(index) : false;
        const last = cur[cur.length - 1] as Piece;
        if (section === false || curTokens + sep + section > chunkBudget)
          flush(last.heading && depth > (last.block.depth ?? 0));
      }
    }
    const reserve = heading ? reserveOfHeading : reserveUnder;
    // A chunk this block starts has the block's context in front: that is its own budget.
    const own = budget - reserve;
    const piece = (text: string, tokens: number, continuation: boolean, start?: number, end?: number): Piece => {
      const p: Piece = { text, tokens, block, heading, path, reserve, continuation };
      if (block.start !== undefined && start !== undefined && end !== undefined) {
        p.start = block.start + start;
        p.end = block.start + end;
      }
      return p;
    };
    const size = sizes[index] as number | false;
    // Headings alone make a chunk only when nothing of what they head fits beside them: a block
    // that fits by itself but not after them is cut so that its start joins them.
    const behindHeadings = cur.length > 0 && onlyHeadings() && size !== false && curTokens + sep + size > chunkBudget;
    const whole = size !== false && size <= own && !behindHeadings ? size : false;
    if (whole !== false) {
      add(piece(block.text, whole, false, 0, block.text.length));
      continue;
    }
    // A long block fills what is left of the current chunk when that is worth it (always behind
    // a heading, which should not stand alone), then takes chunks of its own.
    const left = chunkBudget - curTokens - sep;
    const first = cur.length && (left >= own / 4 || (onlyHeadings() && left > 0)) ? Math.min(left, own) : own;
    await turn();
    const parts = splitBlock(heading ? 'paragraph' : block.type, block.text, counter, own, first, check);
    parts.forEach((part, i) => {
      add(piece(part.text, part.tokens, i > 0, part.start, part.end));
    });
  }
  // The end: whatever is left goes out, headings of empty sections included.
  flush(false);
  return finish(drafts, opts);
}

function finish(drafts: readonly Draft[], opts: PackOptions): Chunk[] {
  const { counter, maxTokens, overlapTokens } = opts;
  return drafts.map((draft, i) => {
    const pieces = draft.pieces;
    const body = pieces.map((p) => p.text).join(JOIN);
    let text = body;
    let tokens = draft.tokens;
    const prev = drafts[i - 1]?.pieces.at(-1);
    const head = pieces[0] as Piece;
    // Only a chunk carrying on from the previous one (same slide, sheet or chapter, no heading
    // between) repeats its end.
    const continues = prev && !head.heading && scopeKey(head.block.scope) === scopeKey(prev.block.scope);
    if (overlapTokens > 0 && continues) {
      // A part continuing the same block carries on its sentence; a new block starts a paragraph.
      const sameBlock = head.continuation && head.block === prev.block;
      const joint = sameBlock ? ' ' : JOIN;
      // The joint itself may cost a token or two: a shorter tail then, never a chunk over budget.
      for (let limit = overlapTokens; limit > 0; ) {
        const tail = overlapText(prev, limit, counter);
        if (!tail) break;
        const known = sameBlock ? undefined : counter.joint(tail, body);
        const total =
          known !== undefined ? counter.count(tail) + known + tokens : counter.count(`${tail}${joint}${body}`);
        if (total <= maxTokens) {
          text = `${tail}${joint}${body}`;
          tokens = total;
          break;
        }
        limit = Math.min(limit - 1, counter.count(tail) - (total - maxTokens));
      }
    }
    const firstContent = pieces.find((p) => !p.heading) ?? (pieces[pieces.length - 1] as Piece);
    // Pieces share their path array: each chunk gets its own copy.
    const headings = [...firstContent.path];
    const chunk: Chunk = { id: `c${i + 1}`, text, tokens, headings, type: typeOf(pieces) };
    provenance(chunk, pieces);
    return chunk;
  });
}
