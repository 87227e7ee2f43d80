import { recode } from '../../tree/continued.ts';
import type { Block, Image, Inline, InlineCode, Link, Root, Table, TableCell, Text } from '../../tree/types.ts';
import { inlineText, walk } from '../../tree/walk.ts';
import { append, replaceContents } from '../../util/arrays.ts';
import { overlapSweep } from './overlap.ts';
import { spanPemAcrossBlocks } from './pem-blocks.ts';
import { REMOVED, type ReplaceStyle, replaceInString, replacement, tidyRemoved } from './replace.ts';
import type { PiiSpan } from './types.ts';

/** Finds PII in many texts at once (heuristics, a model in a worker, or both). */
export type SpanFinder = (texts: readonly string[]) => Promise<PiiSpan[][]>;

/** One piece of text to scan, with the words before it that give it meaning, and how to write it back. */
interface Unit {
  text: string;
  context: string;
  apply(spans: PiiSpan[]): void;
  /** Paragraph, heading or code text (a private key split over blocks is looked for across these). */
  block?: boolean;
}

interface Segment {
  node: Text | InlineCode;
  siblings: Inline[];
  start: number;
  end: number;
}

const CONTEXT_CHARS = 64;
const tail = (s: string) => (s.length > CONTEXT_CHARS ? s.slice(-CONTEXT_CHARS) : s);

/**
 * Redacts a block tree in place of rendering: every output (Markdown, HTML, links, image alts,
 * summary, JSON) is then made from clean text. Text is scanned per paragraph-like block across its
 * inline runs, so a name split over bold and plain runs is one span; link targets (mailto:, tel:,
 * query strings), image alts and titles, code and the document metadata are scanned too.
 */
export async function redactTree(tree: Root, find: SpanFinder, style: ReplaceStyle): Promise<Root> {
  const out = structuredClone(tree);
  const units: Unit[] = [];
  const finalizers: (() => void)[] = [];
  const collector = new Collector(units, finalizers, style);
  collector.metadata(out);
  collector.blocks(out.children);
  const found = await find(units.map((u) => u.context + u.text));
  spanPemAcrossBlocks(
    units.map((u) => ({ text: u.text, shift: u.context.length, block: u.block === true })),
    found,
  );
  units.forEach((u, i) => {
    if (!found[i]?.length) return;
    const shift = u.context.length;
    const spans = (found[i] ?? [])
      .filter((s) => s.end > shift)
      .map((s) => ({ ...s, start: Math.max(0, s.start - shift), end: Math.min(u.text.length, s.end - shift) }))
      .filter((s) => s.end > s.start);
    if (spans.length) u.apply(spans);
  });
  for (const f of finalizers) f();
  if (style === 'remove') pruneEmptiedLinks(out);
  return out;
}

// A target left with its scheme only: `remove` took the address out of a mailto:/tel: link.
const BARE_TARGET = /^(?:(?:mailto|tel|sms|callto):(?:[?#].*)?)?$/is;

/**
 * After `remove`, a link may have lost its text, its target or both (`[jane@x.com](mailto:jane@x.com)`
 * would render as `[mailto:](mailto:)`). A link with no text left goes, spacing tidied as for
 * removed text; a link whose target went keeps its remaining text, unlinked.
 */
function pruneEmptiedLinks(root: Root): void {
  walk(root, (node) => {
    if (!('children' in node) || !node.children.some((c) => c.type === 'link')) return undefined;
    const list = node.children as Inline[];
    // Built anew, not spliced: a link's runs spread into splice overflow the stack past ~100,000.
    const pruned: Inline[] = [];
    let changed = false;
    for (const n of list) {
      if (n.type !== 'link') {
        pruned.push(n);
        continue;
      }
      const hasText = inlineText(n.children).trim() !== '' || n.children.some((c) => c.type === 'image');
      if (!hasText) pruned.push({ type: 'text', value: REMOVED });
      else if (BARE_TARGET.test(n.href.trim())) append(pruned, n.children);
      else {
        pruned.push(n);
        continue;
      }
      changed = true;
    }
    if (changed) tidyAround(replaceContents(list, pruned));
    return undefined;
  });
}

/** Merges the plain text runs a pruned link left side by side and closes the gap it left. */
function tidyAround(list: Inline[]): void {
  const merged: Inline[] = [];
  for (const n of list) {
    const last = merged[merged.length - 1];
    if (n.type === 'text' && !n.data && last?.type === 'text' && !last.data) last.value += n.value;
    else merged.push(n.type === 'text' ? { ...n } : n);
  }
  for (const n of merged) if (n.type === 'text' && n.value.includes(REMOVED)) n.value = tidyRemoved(n.value);
  replaceContents(
    list,
    merged.filter((n) => n.type !== 'text' || n.value !== ''),
  );
}

class Collector {
  private previous = '';

  constructor(
    private readonly units: Unit[],
    private readonly finalizers: (() => void)[],
    private readonly style: ReplaceStyle,
  ) {}

  metadata(root: Root): void {
    const md = root.metadata;
    for (const [key, value] of Object.entries(md)) {
      if (key === 'contentType' || key === 'language') continue;
      if (typeof value === 'string') {
        if (key === 'url' || key === 'sourceURL') this.url(value, (v) => (md[key] = v));
        else this.string(value, `${key}: `, (v) => (md[key] = v));
      } else if (Array.isArray(value)) {
        const copy = [...value];
        md[key] = copy;
        copy.forEach((v, i) => {
          this.string(v, `${key}: `, (nv) => {
            copy[i] = nv;
          });
        });
      }
    }
  }

  blocks(blocks: readonly Block[], header?: string): void {
    for (const b of blocks) this.block(b, header);
  }

  private block(b: Block, header: string | undefined): void {
    switch (b.type) {
      case 'paragraph':
      case 'heading':
        this.inlines(b.children, header);
        return;
      case 'code':
        this.string(b.value, header ? `${header}: ` : this.context(), (v) => recode(b, v), true);
        this.previous = b.value;
        return;
      case 'image':
        this.image(b);
        return;
      case 'table':
        this.table(b);
        return;
      case 'math':
      case 'thematicBreak':
        return;
      case 'list':
        for (const item of b.children) this.blocks(item.children, header);
        return;
      default:
        this.blocks(b.children, header);
    }
  }

  private context(): string {
    return this.previous ? `${tail(this.previous)}\n` : '';
  }

  private table(t: Table): void {
    if (t.caption) this.inlines(t.caption);
    const first = t.children[0];
    const heads: string[] = [];
    const cellText = (c: TableCell) =>
      c.children
        .map((k) => (k.type === 'paragraph' ? inlineText(k.children) : ''))
        .join(' ')
        .trim();
    // An unmarked first row is taken for column heads, unless it holds figures: then it is a data
    // row of a key/value form ("Insured name | Gabriel Diaz | Year | 2022"), whose first cell would
    // otherwise label every other field label under it ("Claim #", "Email") as a name.
    const marked = first?.children.every((c) => c.header);
    const unmarked = first && !t.children.some((r) => r.children.some((c) => c.header));
    if (first && (marked || (unmarked && !first.children.some((c) => /\d/.test(cellText(c)))))) {
      for (const c of first.children) {
        const text = cellText(c);
        for (let n = 0; n < (c.colSpan ?? 1); n++) heads.push(text);
      }
    }
    t.children.forEach((row, r) => {
      let col = 0;
      for (const cell of row.children) {
        // A column head labels its values ("SSN", "Name", "Account number").
        const head = r > 0 ? heads[col] : undefined;
        this.previous = '';
        this.blocks(cell.children, head || undefined);
        col += cell.colSpan ?? 1;
      }
    });
    this.previous = '';
  }

  private image(img: Image): void {
    this.string(img.alt, this.context(), (v) => (img.alt = v));
    if (img.title) this.string(img.title, '', (v) => (img.title = v));
    if (img.url && !img.url.startsWith('data:')) this.url(img.url, (v) => (img.url = v));
  }

  private inlines(nodes: Inline[], header?: string): void {
    const segments: Segment[] = [];
    let text = '';
    const flatten = (list: Inline[]) => {
      for (const n of list) {
        switch (n.type) {
          case 'text':
          case 'inlineCode':
            segments.push({ node: n, siblings: list, start: text.length, end: text.length + n.value.length });
            text += n.value;
            break;
          case 'break':
            text += '\n';
            break;
          case 'image':
            this.image(n);
            text += ' ';
            break;
          case 'footnoteReference':
          case 'inlineMath':
            text += ' ';
            break;
          case 'link':
            this.link(n);
            flatten(n.children);
            break;
          default:
            flatten(n.children);
        }
      }
    };
    flatten(nodes);
    if (!text.trim()) return;
    const context = header ? `${header}: ` : this.context();
    this.previous = text;
    this.units.push({ text, context, block: true, apply: (spans) => this.applyRuns(text, segments, spans) });
  }

  private link(link: Link): void {
    this.url(link.href, (v) => (link.href = v));
    if (link.title) this.string(link.title, '', (v) => (link.title = v));
  }

  /** Writes replacements back into the runs; in `tag` style each placeholder becomes its own run. */
  private applyRuns(text: string, segments: Segment[], spans: PiiSpan[]): void {
    const placed = new Set<PiiSpan>();
    const pieces = new Map<Inline, Inline[]>();
    const overlapping = overlapSweep(spans);
    for (const seg of segments) {
      const hits = overlapping(seg.start, seg.end);
      if (!hits.length) continue;
      const parts: Inline[] = [];
      let buf = '';
      let pos = seg.start;
      for (const s of hits) {
        const a = Math.max(s.start, seg.start);
        const b = Math.min(s.end, seg.end);
        buf += text.slice(pos, a);
        const rep = replacement(s, text.slice(a, b), this.style, !placed.has(s));
        placed.add(s);
        if (this.style === 'tag' && rep && seg.node.type === 'text') {
          if (buf) parts.push({ type: 'text', value: buf });
          parts.push({ type: 'text', value: rep, data: { piiPlaceholder: s.entity } });
          buf = '';
        } else buf += rep;
        pos = b;
      }
      buf += text.slice(pos, seg.end);
      if (buf) parts.push({ type: 'text', value: buf });
      // What the run carried (where a page's part of a paragraph starts) goes on with its first piece.
      const first = parts[0];
      if (seg.node.data && first) first.data = { ...seg.node.data, ...first.data };
      if (seg.node.type === 'inlineCode') {
        seg.node.value = tidyRemoved(parts.map((p) => (p.type === 'text' ? p.value : '')).join(''));
      } else {
        for (const p of parts) if (p.type === 'text' && !p.data?.piiPlaceholder) p.value = tidyRemoved(p.value);
        pieces.set(seg.node, parts);
      }
    }
    const lists = new Set(segments.filter((s) => pieces.has(s.node)).map((s) => s.siblings));
    for (const list of lists)
      replaceContents(
        list,
        list.flatMap((n) => pieces.get(n) ?? [n]),
      );
  }

  private string(value: string, context: string, write: (v: string) => void, block = false): void {
    if (!value.trim()) return;
    this.units.push({
      text: value,
      context,
      block,
      apply: (spans) => write(replaceInString(value, spans, this.style)),
    });
  }

  /**
   * Link targets: the address of mailto:/tel:/sms:, every query value (its key is its context:
   * `?email=…`, `&phone=…`) and the path. Replacements are percent-encoded so the URL stays valid.
   */
  private url(href: string, write: (v: string) => void): void {
    if (!href || href.startsWith('data:') || href.startsWith('#')) return;
    const hashAt = href.indexOf('#');
    const hash = hashAt >= 0 ? href.slice(hashAt) : '';
    const beforeHash = hashAt >= 0 ? href.slice(0, hashAt) : href;
    const qAt = beforeHash.indexOf('?');
    const parts = {
      base: qAt >= 0 ? beforeHash.slice(0, qAt) : beforeHash,
      query: qAt >= 0 ? beforeHash.slice(qAt + 1).split('&') : [],
      hash,
      changed: false,
    };
    const scheme = /^(mailto|tel|sms|callto):/i.exec(parts.base);
    const head = scheme ? scheme[0] : parts.base.replace(/^([a-z][\w+.-]*:\/\/[^/]*)?.*$/i, '$1');
    const rest = parts.base.slice(head.length);
    const context = scheme ? (scheme[1]?.toLowerCase() === 'mailto' ? 'email: ' : 'phone: ') : 'url: ';
    const decoded = safeDecode(rest);
    if (decoded.trim())
      this.units.push({
        text: decoded,
        context,
        apply: (spans) => {
          parts.base = head + encodeUrlPiece(replaceInString(decoded, spans, this.style), scheme !== null);
          parts.changed = true;
        },
      });
    parts.query.forEach((pair, i) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return;
      const key = safeDecode(pair.slice(0, eq));
      const value = safeDecode(pair.slice(eq + 1).replace(/\+/g, ' '));
      if (!value.trim()) return;
      this.units.push({
        text: value,
        context: `${key.replace(/[_-]/g, ' ')}: `,
        apply: (spans) => {
          parts.query[i] = `${pair.slice(0, eq + 1)}${encodeURIComponent(replaceInString(value, spans, this.style))}`;
          parts.changed = true;
        },
      });
    });
    this.finalizers.push(() => {
      if (parts.changed) write(parts.base + (parts.query.length ? `?${parts.query.join('&')}` : '') + parts.hash);
    });
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Percent-encodes what a replacement brought in (`<`, `>`, `*`, spaces) and keeps `/` and `@`. */
function encodeUrlPiece(s: string, opaque: boolean): string {
  return opaque ? encodeURIComponent(s).replace(/%40/g, '@') : encodeURI(s).replace(/[<>]/g, encodeURIComponent);
}
