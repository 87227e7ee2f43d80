import { code, link, list, listItem, paragraph, text } from '../../tree/build.ts';
import type { Block, Inline, List } from '../../tree/types.ts';
import { linked, inlineText as textOfInlines, uncode, whollyCode } from '../../tree/walk.ts';
import { append, minOf } from '../../util/arrays.ts';
import { divideSnippet, monospacedByName } from '../../util/fonts.ts';
import { WIDE_SCRIPT } from '../../util/letters.ts';
import { attr, kid, kids, textOf, type XmlElement } from '../../util/xml.ts';
import type { Rel } from './package.ts';

export interface TextContext {
  rels: Map<string, Rel>;
  /** Body placeholders inherit bullets from the master; plain text boxes do not. */
  bulletsByDefault: boolean;
}

const MAX_LEVEL = 8;

const on = (v: string | undefined) => v === '1' || v === 'true';

/**
 * The Latin face a text body sets each outline level in by default (`a:lstStyle`), where its runs
 * name none of their own: a code box's face is often set there.
 */
function levelFaces(body: XmlElement | undefined): (string | undefined)[] {
  const styles = kid(body, 'lstStyle');
  return Array.from({ length: MAX_LEVEL + 1 }, (_, k) =>
    attr(kid(kid(kid(styles, `lvl${k + 1}pPr`), 'defRPr'), 'latin'), 'typeface'),
  );
}

/** Whether a face is monospaced; a theme's face (`+mn-lt`) is the theme's text face, no code face. */
const monoFace = (face: string | undefined): boolean =>
  face !== undefined && !face.startsWith('+') && monospacedByName(face);

function runInlines(r: XmlElement, rels: Map<string, Rel>, levelFace: string | undefined): Inline[] {
  const value = textOf(kid(r, 't'));
  if (!value) return [];
  const rPr = kid(r, 'rPr');
  const face = attr(kid(rPr, 'latin'), 'typeface') ?? levelFace;
  // CJK and Hangul are drawn in the run's East-Asian face, whatever its Latin one.
  const core = value.trim();
  let nodes: Inline[] = [text(value)];
  if (core && monoFace(face) && !WIDE_SCRIPT.test(core)) {
    // The run's blanks stay outside its code, where its neighbours' words meet them.
    const at = value.indexOf(core);
    nodes = [text(value.slice(0, at)), { type: 'inlineCode', value: core }, text(value.slice(at + core.length))];
    nodes = nodes.filter((n) => n.type !== 'text' || n.value);
  }
  if (on(attr(rPr, 'i'))) nodes = [{ type: 'emphasis', children: nodes }];
  if (on(attr(rPr, 'b'))) nodes = [{ type: 'strong', children: nodes }];
  const rid = attr(kid(rPr, 'hlinkClick'), 'r:id');
  const rel = rid ? rels.get(rid) : undefined;
  if (rel?.external && rel.target) nodes = [link(rel.target, nodes)];
  return nodes;
}

/** Inline content of one a:p, set in `levelFace` where its runs name no face of their own. */
export function paragraphInlines(p: XmlElement, rels: Map<string, Rel>, levelFace: string | undefined): Inline[] {
  const out: Inline[] = [];
  for (const c of kids(p)) {
    const n = c.name.slice(c.name.indexOf(':') + 1);
    if (n === 'r' || n === 'fld') append(out, runInlines(c, rels, levelFace));
    else if (n === 'br') out.push({ type: 'break' });
  }
  while (out.length && out[out.length - 1]?.type === 'break') out.pop();
  return out;
}

/** A paragraph's text as lines of code: its breaks end lines, a tab is four blanks. */
const codeLines = (nodes: readonly Inline[]): string => textOfInlines(nodes, '\n').replace(/\t/g, '    ');

/** A paragraph's outline level: DrawingML has nine (0–8); a larger one would nest a list per paragraph. */
const levelOf = (pPr: XmlElement | undefined): number =>
  Math.min(MAX_LEVEL, Math.max(0, Math.trunc(Number(attr(pPr, 'lvl') ?? 0) || 0)));

const plain = (inl: Inline[]): string =>
  inl.map((i) => ('value' in i ? i.value : 'children' in i ? plain(i.children as Inline[]) : '')).join('');

interface Item {
  level: number;
  ordered: boolean;
  start: number;
  inlines: Inline[];
}

function nest(items: Item[]): List {
  const base = items[0] as Item;
  const top = list(base.ordered, [], base.start);
  let i = 0;
  while (i < items.length) {
    const it = items[i] as Item;
    let j = i + 1;
    while (j < items.length && (items[j] as Item).level > it.level) j++;
    const li = listItem([paragraph(it.inlines)]);
    if (j > i + 1) li.children.push(nest(items.slice(i + 1, j)));
    top.children.push(li);
    i = j;
  }
  return top;
}

/**
 * Paragraphs of a text body as blocks: bulleted runs of paragraphs become (nested) lists, and
 * paragraphs set wholly in a monospaced face with signs of code in them one code block (a slide's
 * snippet); set so without them, they are text (a font choice).
 */
export function textBlocks(body: XmlElement | undefined, tc: TextContext): Block[] {
  const out: Block[] = [];
  let pending: Item[] = [];
  // Paragraphs set wholly in a monospaced face, in a row: one snippet, or text, decided together
  // (a line of code need not show a sign of code itself: "else:", "pass").
  let mono: Inline[][] = [];
  // A blank paragraph since the snippet's last line: one blank line, once a line follows it.
  let gap = false;
  const flush = () => {
    if (!pending.length) return;
    // Items at a lower level than the first would be lost by nest(): shift levels relative to the minimum.
    const min = minOf(pending.map((p) => p.level));
    out.push(nest(pending.map((p) => ({ ...p, level: p.level - min }))));
    pending = [];
  };
  const flushMono = () => {
    divideSnippet(
      mono.map(codeLines),
      (value) => out.push(code(value)),
      (k) => {
        const m = mono[k] as Inline[];
        if (m.length) out.push(paragraph(uncode(m)));
      },
    );
    mono = [];
    gap = false;
  };
  const faces = levelFaces(body);
  for (const p of kids(body, 'p')) {
    const pPr = kid(p, 'pPr');
    const level = levelOf(pPr);
    let inlines = paragraphInlines(p, tc.rels, faces[level]);
    if (!plain(inlines).trim()) {
      if (mono.length) gap = true;
      continue;
    }
    const autoNum = kid(pPr, 'buAutoNum');
    const bullet = kid(pPr, 'buNone')
      ? false
      : autoNum || kid(pPr, 'buChar') || kid(pPr, 'buBlip')
        ? true
        : tc.bulletsByDefault;
    const whole = whollyCode(inlines);
    // A linked paragraph is no line of a snippet: a code block would lose its target.
    if (whole && !bullet && !linked(inlines)) {
      flush();
      // One blank line however many blank paragraphs, as Markdown keeps no more between lines of code.
      if (gap) mono.push([]);
      gap = false;
      mono.push(inlines);
      continue;
    }
    if (mono.length) flushMono();
    if (whole) inlines = uncode(inlines);
    if (!bullet) {
      flush();
      out.push(paragraph(inlines));
      continue;
    }
    const ordered = !!autoNum;
    const start = Number(attr(autoNum, 'startAt') ?? 1) || 1;
    const first = pending[0];
    if (first && first.level === level && first.ordered !== ordered && pending.every((x) => x.level >= level)) flush();
    pending.push({ level, ordered, start, inlines });
  }
  flush();
  if (mono.length) flushMono();
  return out;
}

/** A text body flattened to inlines with line breaks between paragraphs (table cells, titles). */
export function bodyInlines(body: XmlElement | undefined, rels: Map<string, Rel>): Inline[] {
  const out: Inline[] = [];
  const faces = levelFaces(body);
  for (const p of kids(body, 'p')) {
    const inl = paragraphInlines(p, rels, faces[levelOf(kid(p, 'pPr'))]);
    if (!plain(inl).trim()) continue;
    if (out.length) out.push({ type: 'break' });
    append(out, inl);
  }
  // A title or a cell wholly in a typewriter face is set so, not code among its words.
  return whollyCode(out) ? uncode(out) : out;
}

export const inlineText = plain;
