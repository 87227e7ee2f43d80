import type { Token, Tokens } from 'marked';
import { throwIfAborted } from '../../errors.ts';
import { cell, code, heading, image, link, list, listItem, paragraph, row, table, text } from '../../tree/build.ts';
import type { Block, Inline } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { decodeHtmlEntities } from './entities.ts';

/**
 * marked's tokens → the block tree. Markdown's own structure maps one to one (headings, lists with
 * task boxes, GFM tables, fenced code with its language, quotes, rules, images, links); raw HTML is
 * handed back to the caller (`html`), which converts it with the HTML adapter, so no markup reaches
 * the output.
 */

/** A block of raw HTML, converted by the caller once every token is walked. */
export interface HtmlHole {
  html: string;
  /** Where its blocks go. */
  into: Block[];
  at: number;
}

interface State {
  holes: HtmlHole[];
  signal: AbortSignal | undefined;
  visited: number;
}

/** Inline HTML tags with a meaning of their own in the tree; others are dropped, their text kept. */
const INLINE_TAGS: Record<string, 'strong' | 'emphasis' | 'strikethrough' | 'superscript' | 'subscript'> = {
  b: 'strong',
  strong: 'strong',
  i: 'emphasis',
  em: 'emphasis',
  s: 'strikethrough',
  del: 'strikethrough',
  strike: 'strikethrough',
  sup: 'superscript',
  sub: 'subscript',
};

/** Inline tokens → inlines; inline HTML tags open and close marks around the tokens between them. */
function inlines(tokens: readonly Token[] | undefined): Inline[] {
  const out: Inline[] = [];
  // Open inline tags: the list being filled and the mark's tag.
  const stack: { tag: string; into: Inline[]; node: Inline & { children: Inline[] } }[] = [];
  const target = () => stack[stack.length - 1]?.node.children ?? out;
  for (const t of tokens ?? []) {
    const into = target();
    switch (t.type) {
      case 'text':
      case 'escape': {
        const tok = t as Tokens.Text;
        if (tok.tokens?.length) append(into, inlines(tok.tokens));
        else into.push(text(decodeHtmlEntities(tok.text)));
        break;
      }
      case 'strong':
        into.push({ type: 'strong', children: inlines((t as Tokens.Strong).tokens) });
        break;
      case 'em':
        into.push({ type: 'emphasis', children: inlines((t as Tokens.Em).tokens) });
        break;
      case 'del':
        into.push({ type: 'strikethrough', children: inlines((t as Tokens.Del).tokens) });
        break;
      case 'codespan':
        into.push({ type: 'inlineCode', value: decodeHtmlEntities((t as Tokens.Codespan).text) });
        break;
      case 'br':
        into.push({ type: 'break' });
        break;
      case 'link': {
        const tok = t as Tokens.Link;
        into.push(link(tok.href, inlines(tok.tokens), tok.title ?? undefined));
        break;
      }
      case 'image': {
        const tok = t as Tokens.Image;
        into.push(image(decodeHtmlEntities(tok.text), { url: tok.href, ...(tok.title ? { title: tok.title } : {}) }));
        break;
      }
      case 'html': {
        const tag = /^<(\/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*?(\/?)>$/.exec((t as Tokens.Tag).text.trim());
        if (!tag) break;
        const name = (tag[2] as string).toLowerCase();
        if (name === 'br') into.push({ type: 'break' });
        const mark = INLINE_TAGS[name];
        if (!mark || tag[3]) break;
        if (!tag[1]) {
          const node = { type: mark, children: [] as Inline[] } as Inline & { children: Inline[] };
          into.push(node);
          stack.push({ tag: name, into, node });
        } else {
          const at = stack.findLastIndex((s) => s.tag === name);
          if (at >= 0) stack.length = at;
        }
        break;
      }
      default:
        // Extensions' tokens and anything unknown: their text, never dropped.
        if (typeof (t as Tokens.Generic).text === 'string') into.push(text(decodeHtmlEntities(t.raw)));
    }
  }
  return out;
}

function tableBlock(t: Tokens.Table): Block {
  const header = row(t.header.map((c) => cell([paragraph(inlines(c.tokens))], { header: true })));
  const rows = t.rows.map((r) => row(r.map((c) => cell(c.tokens.length ? [paragraph(inlines(c.tokens))] : []))));
  return table([header, ...rows]);
}

function listBlock(t: Tokens.List, state: State): Block {
  const items = t.items.map((item) => {
    const kids = item.tokens.filter((k) => k.type !== 'checkbox');
    return listItem(blocks(kids, state), item.task ? Boolean(item.checked) : undefined);
  });
  return list(t.ordered, items, typeof t.start === 'number' ? t.start : undefined);
}

/** Block tokens → blocks. A list item's bare `text` token is its paragraph (tight lists). */
export function blocks(tokens: readonly Token[], state: State): Block[] {
  const out: Block[] = [];
  for (const t of tokens) {
    if (++state.visited % 4096 === 0) throwIfAborted(state.signal);
    switch (t.type) {
      case 'heading': {
        const h = t as Tokens.Heading;
        out.push(heading(h.depth, inlines(h.tokens)));
        break;
      }
      case 'paragraph':
      case 'text': {
        const tok = t as Tokens.Paragraph;
        const kids = inlines(tok.tokens ?? [{ type: 'text', raw: tok.text, text: tok.text }]);
        if (kids.length) out.push(paragraph(kids));
        break;
      }
      case 'list':
        out.push(listBlock(t as Tokens.List, state));
        break;
      case 'table':
        out.push(tableBlock(t as Tokens.Table));
        break;
      case 'code': {
        const c = t as Tokens.Code;
        out.push(code(c.text, c.lang?.trim().split(/\s+/)[0] || undefined));
        break;
      }
      case 'blockquote':
        out.push({ type: 'blockquote', children: blocks((t as Tokens.Blockquote).tokens, state) });
        break;
      case 'hr':
        out.push({ type: 'thematicBreak' });
        break;
      case 'html': {
        const html = (t as Tokens.HTML).text;
        // Comments carry nothing to read.
        if (html.replace(/<!--[\s\S]*?(-->|$)/g, '').trim()) state.holes.push({ html, into: out, at: out.length });
        break;
      }
      default:
        // `space` and `def` (link definitions, already applied to the links) render nothing.
        break;
    }
  }
  return out;
}

/** Tokens → blocks plus the HTML blocks to convert and splice in. */
export function convert(tokens: readonly Token[], signal?: AbortSignal): { blocks: Block[]; holes: HtmlHole[] } {
  const state: State = { holes: [], signal, visited: 0 };
  return { blocks: blocks(tokens, state), holes: state.holes };
}
