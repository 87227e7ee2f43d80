import { link, text } from '../../tree/build.ts';
import type { Block, Inline } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { attr, child, isElement, textOf, type XmlElement, type XmlNode } from '../../util/xml.ts';
import { type PageTurns, splitAtMarks } from '../common/page-turns.ts';
import { readBlocks } from './blocks.ts';
import { type ReaderEnv, TOP } from './env.ts';
import { SOFT_PAGE_BREAK } from './pages.ts';
import { isShape, readShapeInline } from './shapes.ts';
import { mergeFormat, type TextFormat } from './styles.ts';

/** Inline content of a paragraph plus blocks anchored in it (text boxes, charts) that follow it. */
export interface InlineResult {
  inlines: Inline[];
  blocks: Block[];
  /** Where the layout turned the page inside the paragraph, when its first page is known. */
  turns?: PageTurns;
}

function put(out: InlineResult, node: Inline): void {
  out.inlines.push(out.turns ? out.turns.stamp(node) : node);
}

/** Inline elements whose content never reaches the reader: markers, tracked-change anchors, comments. */
const SKIP = new Set([
  'text:bookmark',
  'text:bookmark-start',
  'text:bookmark-end',
  'text:reference-mark',
  'text:reference-mark-start',
  'text:reference-mark-end',
  'text:change',
  'text:change-start',
  'text:change-end',
  'text:number',
  'office:annotation',
  'office:annotation-end',
  'text:toc-mark',
  'text:toc-mark-start',
  'text:toc-mark-end',
  'text:alphabetical-index-mark',
  'text:alphabetical-index-mark-start',
  'text:alphabetical-index-mark-end',
  'text:user-index-mark',
  'text:user-index-mark-start',
  'text:user-index-mark-end',
  'presentation:notes',
]);

/** Wraps one run in the marks its format asks for (innermost first). */
export function styled(node: Inline, fmt: TextFormat): Inline {
  let n = node;
  if (fmt.strike) n = { type: 'strikethrough', children: [n] };
  if (fmt.italic) n = { type: 'emphasis', children: [n] };
  if (fmt.bold) n = { type: 'strong', children: [n] };
  if (fmt.position === 'super') n = { type: 'superscript', children: [n] };
  else if (fmt.position === 'sub') n = { type: 'subscript', children: [n] };
  return n;
}

function run(value: string, fmt: TextFormat): Inline {
  // Whitespace-only runs stay plain so marks never wrap a lone space.
  if (!value.trim()) return text(value);
  return styled(fmt.mono ? { type: 'inlineCode', value } : text(value), fmt);
}

export function readInlines(el: XmlElement, env: ReaderEnv, fmt: TextFormat, out: InlineResult): void {
  for (const c of el.children) readInlineNode(c, env, fmt, out);
}

function readInlineNode(node: XmlNode, env: ReaderEnv, fmt: TextFormat, out: InlineResult): void {
  if (!isElement(node)) {
    // ODF collapses source whitespace like HTML; text:s carries intentional spaces.
    const v = node.replace(/[\t\n\r ]+/g, ' ');
    if (v.trim()) out.turns?.seeText();
    if (v) put(out, run(v, fmt));
    return;
  }
  const name = node.name;
  if (SKIP.has(name)) return;
  switch (name) {
    case SOFT_PAGE_BREAK:
      out.turns?.mark();
      return;
    case 'text:span':
      readInlines(node, env, mergeFormat(fmt, env.styles.text(attr(node, 'text:style-name'))), out);
      return;
    case 'text:a': {
      const href = (attr(node, 'xlink:href') ?? '').trim();
      const inner: InlineResult = { inlines: [], blocks: out.blocks };
      if (out.turns) inner.turns = out.turns;
      readInlines(node, env, mergeFormat(fmt, env.styles.text(attr(node, 'text:style-name'))), inner);
      if (href && inner.inlines.length) append(out.inlines, splitAtMarks(link(href, inner.inlines)));
      else append(out.inlines, inner.inlines);
      return;
    }
    case 'text:s': {
      const n = Math.min(100, Math.max(1, Number(attr(node, 'text:c') ?? '1') || 1));
      put(out, text(' '.repeat(n)));
      return;
    }
    case 'text:tab':
      put(out, text(' '));
      return;
    case 'text:line-break':
      put(out, { type: 'break' });
      return;
    case 'text:note':
      readNote(node, env, out);
      return;
    case 'text:hidden-text':
      if (attr(node, 'text:is-hidden') === 'false') readInlines(node, env, fmt, out);
      return;
    case 'text:ruby':
      readInlines(child(node, 'text:ruby-base') ?? node, env, fmt, out);
      return;
    default:
      if (isShape(node)) {
        readShapeInline(node, env, out);
        return;
      }
      // Fields (dates, page numbers, cross references) and meta wrappers show their content.
      readInlines(node, env, fmt, out);
  }
}

function noteIdentifier(citation: string, env: ReaderEnv): string {
  const base = citation.replace(/[^\p{L}\p{N}_-]+/gu, '') || String(env.notes.length + 1);
  let id = base;
  for (let i = 2; env.noteIds.has(id); i++) id = `${base}-${i}`;
  env.noteIds.add(id);
  return id;
}

/** Footnotes and endnotes: a reference here, the body collected for the end of the document. */
function readNote(note: XmlElement, env: ReaderEnv, out: InlineResult): void {
  const citationEl = child(note, 'text:note-citation');
  const citation = (attr(citationEl, 'text:label') ?? textOf(citationEl)).trim();
  const identifier = noteIdentifier(citation, env);
  const ref: Inline = { type: 'footnoteReference', identifier };
  if (citation && citation !== identifier) ref.label = citation;
  put(out, ref);
  const body = child(note, 'text:note-body');
  env.depth++;
  const blocks = body && env.depth < 8 ? readBlocks(body.children, env, TOP) : [];
  env.depth--;
  const def: Block = { type: 'footnoteDefinition', identifier, children: blocks };
  // A footnote is printed on the page of its reference (endnotes: `notesOnLastPage`).
  const page = attr(note, 'text:note-class') === 'endnote' ? undefined : (out.turns?.page ?? env.page);
  if (page !== undefined) def.source = { page };
  if (ref.label) def.label = ref.label;
  env.notes.push(def);
}
