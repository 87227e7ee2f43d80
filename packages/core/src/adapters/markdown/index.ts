import type { Token } from 'marked';
import { DocmillError, throwIfAborted } from '../../errors.ts';
import { paragraph, root } from '../../tree/build.ts';
import type { Block, DocumentMetadata } from '../../tree/types.ts';
import { blockText } from '../../tree/walk.ts';
import { append } from '../../util/arrays.ts';
import { nextTask } from '../../util/task.ts';
import { decodeTextFile } from '../../util/text-file.ts';
import { htmlBlocks } from '../common/html-fragment.ts';
import { plainTextBlocks } from '../text/blocks.ts';
import type { Adapter, AdapterContext } from '../types.ts';
import { convert, type HtmlHole } from './convert.ts';

/**
 * Markdown (`.md`, `.markdown`): CommonMark with GitHub's tables, task lists and strikethrough,
 * parsed by marked into the block tree (headings, lists, tables, code with its language, quotes),
 * so chunking and redaction see its structure. YAML front matter becomes metadata; raw HTML blocks
 * go through the HTML adapter.
 */

/** A YAML front-matter block at the very start: `---` lines around `key: value` lines. */
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const META_KEYS: Record<string, keyof DocumentMetadata> = {
  title: 'title',
  author: 'author',
  description: 'description',
  summary: 'description',
  keywords: 'keywords',
  tags: 'keywords',
  lang: 'language',
  language: 'language',
};

function frontMatter(text: string): { body: string; metadata: DocumentMetadata } {
  const m = FRONT_MATTER.exec(text);
  if (!m) return { body: text, metadata: {} };
  const metadata: DocumentMetadata = {};
  for (const line of (m[1] as string).split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.+)$/.exec(line);
    const key = kv && META_KEYS[(kv[1] as string).toLowerCase()];
    if (!key || metadata[key] !== undefined) continue;
    const value = (kv[2] as string)
      .trim()
      .replace(/^\[(.*)\]$/, '$1')
      .replace(/^(["'])(.*)\1$/, '$2')
      .trim();
    if (value) metadata[key] = value;
  }
  return { body: text.slice(m[0].length), metadata };
}

/** Raw HTML blocks as blocks, spliced in last-first so earlier positions stay valid. */
async function fillHoles(holes: HtmlHole[], ctx: AdapterContext): Promise<void> {
  for (let i = holes.length - 1; i >= 0; i--) {
    const hole = holes[i] as HtmlHole;
    throwIfAborted(ctx.signal);
    let converted: Block[];
    try {
      converted = await htmlBlocks(hole.html, ctx);
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      // The HTML reader may be unavailable (a Web Worker without a DOM): keep the text.
      const plain = hole.html
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      converted = plain ? [paragraph(plain)] : [];
    }
    const tail = hole.into.splice(hole.at);
    append(append(hole.into, converted), tail);
  }
}

/** Quote levels and indentation columns kept; marked recurses per level (and a hostile depth exhausts the heap). */
const MAX_QUOTE_DEPTH = 16;
const MAX_INDENT = 64;

/**
 * Caps each line's quote markers and leading indentation, so nesting stays within what a reader
 * shows anyway (16 quote levels, about 30 list levels). Real documents are unchanged.
 */
export function boundNesting(text: string): string {
  return text.replace(/^[ \t]{65,}|^(?: {0,3}> ?){17,}/gm, (m) =>
    m.includes('>') ? '> '.repeat(MAX_QUOTE_DEPTH) : m.replace(/\t/g, '    ').slice(0, MAX_INDENT),
  );
}

/**
 * An inline run (a paragraph, heading or cell) longer than this, or with more delimiters, stays plain
 * text: marked's emphasis and link matching grows with the square of the delimiters in a run.
 */
const MAX_INLINE_CHARS = 100_000;
const MAX_INLINE_DELIMITERS = 10_000;
/** Inline source lexed between yields to the event loop, so the timeout can stop a long file. */
const YIELD_EVERY = 256 * 1024;

function delimiters(src: string): number {
  let n = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    // * _ ~ [ ` <
    if (c === 42 || c === 95 || c === 126 || c === 91 || c === 96 || c === 60) n++;
  }
  return n;
}

/** marked's `lex`, with each inline run bounded and the event loop given turns between runs. */
async function lex(text: string, ctx: AdapterContext): Promise<Token[] | undefined> {
  const { Lexer } = await import('marked');
  const lexer = new Lexer({ gfm: true });
  try {
    lexer.blockTokens(boundNesting(text.replace(/\r\n?/g, '\n')), lexer.tokens);
    let since = 0;
    let plain = 0;
    for (const run of lexer.inlineQueue) {
      if (run.src.length > MAX_INLINE_CHARS || delimiters(run.src) > MAX_INLINE_DELIMITERS) {
        run.tokens.push({ type: 'text', raw: run.src, text: run.src, escaped: true });
        plain++;
        continue;
      }
      lexer.state.inRawBlock = false;
      lexer.inlineTokens(run.src, run.tokens);
      since += run.src.length;
      if (since > YIELD_EVERY) {
        since = 0;
        await nextTask();
        throwIfAborted(ctx.signal);
      }
    }
    if (plain)
      ctx.warn(
        `${plain} Markdown paragraph(s) longer than ${MAX_INLINE_CHARS} characters or with more than ${MAX_INLINE_DELIMITERS} markup characters were kept as plain text.`,
      );
  } catch (err) {
    if (err instanceof DocmillError) throw err;
    // marked's regular expressions exhaust the stack on a paragraph of several megabytes.
    ctx.warn(
      `The Markdown could not be parsed (${err instanceof Error ? err.message : String(err)}); its text is kept as plain paragraphs.`,
    );
    return undefined;
  }
  return lexer.tokens;
}

export async function parseMarkdownText(text: string, ctx: AdapterContext): Promise<Block[]> {
  const tokens = await lex(text, ctx);
  throwIfAborted(ctx.signal);
  if (!tokens) return plainTextBlocks(text, ctx.signal);
  const { blocks, holes } = convert(tokens, ctx.signal);
  await fillHoles(holes, ctx);
  return blocks;
}

export const adapter: Adapter = {
  name: 'markdown',
  kinds: ['markdown'],
  async parse(bytes, ctx) {
    throwIfAborted(ctx.signal);
    const { text } = decodeTextFile(bytes, 'Markdown text file');
    const { body, metadata } = frontMatter(text.replace(/^\uFEFF/, ''));
    const blocks = await parseMarkdownText(body, ctx);
    if (!metadata.title) {
      const h1 = blocks.find((b) => b.type === 'heading' && b.depth === 1);
      const title = h1 && blockText(h1).replace(/\s+/g, ' ').trim();
      if (title) metadata.title = title;
    }
    return { tree: root(append([], blocks), metadata) };
  },
};
