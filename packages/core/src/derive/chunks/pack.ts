import { throwIfAborted } from '../../errors.ts';
import type { BBox } from '../../tree/types.ts';
import type { Counter } from './counter.ts';
import { sentenceRanges, wordRanges } from './segments.ts';
import type { Scope, SourceBlock } from './source.ts';
import { splitBlock } from './split.ts';
import type { Chunk, ChunkBox, ChunkType } from './types.ts';

export interface PackOptions {
  maxTokens: number;
  overlapTokens: number;
  counter: Counter;
  signal?: AbortSignal;
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
  /** A part after the first of a block cut in parts. */
  continuation: boolean;
}

interface Draft {
  pieces: Piece[];
  /** True when the chunk carries on from the previous one (same section, no heading between). */
  continues: boolean;
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
const scopeKey = (s: Scope) => (s.kind === 'page' || s.kind === 'document' ? 'flow' : `${s.kind}:${s.number}`);

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

const union = (a: BBox, b: BBox): BBox => [
  Math.min(a[0], b[0]),
  Math.min(a[1], b[1]),
  Math.max(a[2], b[2]),
  Math.max(a[3], b[3]),
];

function provenance(chunk: Chunk, pieces: readonly Piece[]): void {
  const pages = new Set<number>();
  const boxes = new Map<number, BBox>();
  const ids: string[] = [];
  let start: number | undefined;
  let end: number | undefined;
  let offsets = true;
  for (const p of pieces) {
    const b = p.block;
    if (b.page !== undefined) pages.add(b.page);
    if (b.bbox && b.page !== undefined) {
      const box = boxes.get(b.page);
      boxes.set(b.page, box ? union(box, b.bbox) : b.bbox);
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

/** Cuts the blocks into chunks: headings start chunks, small blocks merge, long ones are cut. */
export function packChunks(blocks: readonly SourceBlock[], opts: PackOptions): Chunk[] {
  const { counter, maxTokens, overlapTokens } = opts;
  const budget = maxTokens - overlapTokens;
  const sep = counter.count(JOIN);
  const drafts: Draft[] = [];
  let stack: { depth: number; text: string }[] = [];
  let cur: Piece[] = [];
  let curTokens = 0;
  let scope: string | undefined;
  /** The next chunk starts at a heading or a new section: nothing to overlap with. */
  let fresh = true;

  const take = (n: number) => {
    drafts.push({ pieces: cur.slice(0, n), continues: !fresh });
    fresh = false;
    const rest = cur.slice(n);
    cur = [];
    curTokens = 0;
    for (const p of rest) add(p);
  };
  /** Emits the current chunk, giving back trailing pieces while the exact count is over budget. */
  const flushOne = () => {
    let n = cur.length;
    while (
      n > 1 &&
      counter.within(
        cur
          .slice(0, n)
          .map((p) => p.text)
          .join(JOIN),
        budget,
      ) === false
    )
      n--;
    take(n);
  };
  const flush = () => {
    while (cur.length) flushOne();
  };
  function add(p: Piece): void {
    if (cur.length && curTokens + sep + p.tokens > budget) flushOne();
    curTokens += (cur.length ? sep : 0) + p.tokens;
    cur.push(p);
  }
  const onlyHeadings = () => cur.every((p) => p.heading);

  blocks.forEach((block, index) => {
    if (index % CHECK_EVERY === 0) throwIfAborted(opts.signal);
    const key = scopeKey(block.scope);
    if (key !== scope) {
      flush();
      fresh = true;
      if (key !== 'flow' || (scope !== undefined && scope !== 'flow')) stack = [];
      scope = key;
    }
    const heading = block.type === 'heading' && block.depth !== undefined;
    if (heading) {
      const depth = block.depth as number;
      while (stack.length && (stack[stack.length - 1] as { depth: number }).depth >= depth) stack.pop();
      stack.push({ depth, text: headingText(block.text) });
      if (!onlyHeadings()) flush();
      if (!cur.length) fresh = true;
    }
    const path = stack.map((h) => h.text);
    const whole = block.text.length <= budget * 8 ? counter.within(block.text, budget) : false;
    const base = { block, heading, path };
    if (whole !== false) {
      const piece: Piece = { ...base, text: block.text, tokens: whole, continuation: false };
      if (block.start !== undefined) {
        piece.start = block.start;
        piece.end = block.start + block.text.length;
      }
      add(piece);
      return;
    }
    // A long block fills what is left of the current chunk when that is worth it (always behind
    // a heading, which should not stand alone), then takes chunks of its own.
    const left = budget - curTokens - sep;
    const first = cur.length && (left >= budget / 4 || (onlyHeadings() && left > 0)) ? left : budget;
    const parts = splitBlock(heading ? 'paragraph' : block.type, block.text, counter, budget, first);
    parts.forEach((part, i) => {
      const piece: Piece = { ...base, text: part.text, tokens: part.tokens, continuation: i > 0 };
      if (block.start !== undefined) {
        piece.start = block.start + part.start;
        piece.end = block.start + part.end;
      }
      add(piece);
    });
  });
  flush();
  return finish(drafts, opts);
}

function finish(drafts: readonly Draft[], opts: PackOptions): Chunk[] {
  const { counter, maxTokens, overlapTokens } = opts;
  return drafts.map((draft, i) => {
    const pieces = draft.pieces;
    const body = pieces.map((p) => p.text).join(JOIN);
    let text = body;
    let tokens = counter.within(body, maxTokens);
    const prev = drafts[i - 1]?.pieces.at(-1);
    const head = pieces[0] as Piece;
    if (overlapTokens > 0 && draft.continues && prev) {
      const tail = overlapText(prev, overlapTokens, counter);
      // A part continuing the same block carries on its sentence; a new block starts a paragraph.
      const joint = head.continuation && head.block === prev.block ? ' ' : JOIN;
      const withTail = tail ? counter.within(`${tail}${joint}${body}`, maxTokens) : false;
      if (withTail !== false) {
        text = `${tail}${joint}${body}`;
        tokens = withTail;
      }
    }
    const firstContent = pieces.find((p) => !p.heading) ?? (pieces[pieces.length - 1] as Piece);
    const chunk: Chunk = {
      id: `c${i + 1}`,
      text,
      tokens: tokens === false ? counter.count(text) : tokens,
      headings: firstContent.path,
      type: typeOf(pieces),
    };
    provenance(chunk, pieces);
    return chunk;
  });
}
