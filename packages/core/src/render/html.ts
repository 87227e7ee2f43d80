import type { Block, Inline, Root, TableCell } from '../tree/types.ts';
import { normalizeInlines } from './inline-normalize.ts';

export interface HtmlOptions {
  removeBase64Images?: boolean;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeHtml(s).replace(/"/g, '&quot;');

function imageSrc(url: string | undefined, opts: HtmlOptions): string | undefined {
  if (!url) return undefined;
  if (url.startsWith('data:') && opts.removeBase64Images !== false) return undefined;
  return url;
}

type InlineHandlers = { [K in Inline['type']]: (n: Extract<Inline, { type: K }>, o: HtmlOptions) => string };
const inlineHandlers: InlineHandlers = {
  text: (n) => escapeHtml(n.value),
  strong: (n, o) => `<strong>${inlines(n.children, o)}</strong>`,
  emphasis: (n, o) => `<em>${inlines(n.children, o)}</em>`,
  strikethrough: (n, o) => `<del>${inlines(n.children, o)}</del>`,
  superscript: (n, o) => `<sup>${inlines(n.children, o)}</sup>`,
  subscript: (n, o) => `<sub>${inlines(n.children, o)}</sub>`,
  inlineCode: (n) => `<code>${escapeHtml(n.value)}</code>`,
  inlineMath: (n) => `<code class="math">${escapeHtml(n.value)}</code>`,
  link: (n, o) =>
    `<a href="${escapeAttr(n.href)}"${n.title ? ` title="${escapeAttr(n.title)}"` : ''}>${inlines(n.children, o)}</a>`,
  break: () => '<br>',
  footnoteReference: (n) =>
    `<sup><a href="#fn-${escapeAttr(n.identifier)}">${escapeHtml(n.label ?? n.identifier)}</a></sup>`,
  image: (n, o) => {
    const src = imageSrc(n.url, o);
    return `<img${src ? ` src="${escapeAttr(src)}"` : ''} alt="${escapeAttr(n.alt)}"${n.title ? ` title="${escapeAttr(n.title)}"` : ''}>`;
  },
};

function inlines(nodes: readonly Inline[], o: HtmlOptions): string {
  return normalizeInlines(nodes)
    .map((n) => (inlineHandlers[n.type] as (n: Inline, o: HtmlOptions) => string)(n, o))
    .join('');
}

function cellHtml(c: TableCell, o: HtmlOptions): string {
  const tag = c.header ? 'th' : 'td';
  const attrs = `${c.rowSpan && c.rowSpan > 1 ? ` rowspan="${c.rowSpan}"` : ''}${c.colSpan && c.colSpan > 1 ? ` colspan="${c.colSpan}"` : ''}`;
  const single = c.children.length === 1 && c.children[0]?.type === 'paragraph';
  const inner = single ? inlines((c.children[0] as { children: Inline[] }).children, o) : blocks(c.children, o);
  return `<${tag}${attrs}>${inner}</${tag}>`;
}

type BlockHandlers = { [K in Block['type']]: (n: Extract<Block, { type: K }>, o: HtmlOptions) => string };
const blockHandlers: BlockHandlers = {
  heading: (n, o) => `<h${n.depth}>${inlines(n.children, o)}</h${n.depth}>`,
  paragraph: (n, o) => `<p>${inlines(n.children, o)}</p>`,
  list: (n, o) => {
    const tag = n.ordered ? 'ol' : 'ul';
    const start = n.ordered && n.start !== undefined && n.start !== 1 ? ` start="${n.start}"` : '';
    const items = n.children.map((it) => {
      const box = it.checked === undefined ? '' : `<input type="checkbox" disabled${it.checked ? ' checked' : ''}> `;
      const single = it.children.length === 1 && it.children[0]?.type === 'paragraph';
      const inner = single ? inlines((it.children[0] as { children: Inline[] }).children, o) : blocks(it.children, o);
      return `<li>${box}${inner}</li>`;
    });
    return `<${tag}${start}>${items.join('')}</${tag}>`;
  },
  table: (n, o) => {
    const caption = n.caption?.length ? `<caption>${inlines(n.caption, o)}</caption>` : '';
    const rows = n.children.map((r) => `<tr>${r.children.map((c) => cellHtml(c, o)).join('')}</tr>`);
    const headCount = n.children.findIndex((r) => !r.children.every((c) => c.header));
    const h = headCount < 0 ? n.children.length : headCount;
    const thead = h > 0 ? `<thead>${rows.slice(0, h).join('')}</thead>` : '';
    const tbody = rows.length > h ? `<tbody>${rows.slice(h).join('')}</tbody>` : '';
    return `<table>${caption}${thead}${tbody}</table>`;
  },
  code: (n) =>
    `<pre><code${n.lang ? ` class="language-${escapeAttr(n.lang)}"` : ''}>${escapeHtml(n.value)}</code></pre>`,
  blockquote: (n, o) => `<blockquote>${blocks(n.children, o)}</blockquote>`,
  thematicBreak: () => '<hr>',
  footnoteDefinition: (n, o) =>
    `<div class="footnote" id="fn-${escapeAttr(n.identifier)}"><sup>${escapeHtml(n.label ?? n.identifier)}</sup>${blocks(n.children, o)}</div>`,
  math: (n) => `<pre class="math">${escapeHtml(n.value)}</pre>`,
  image: (n, o) => inlineHandlers.image(n, o),
  section: (n, o) => {
    const label = n.name ? ` aria-label="${escapeAttr(n.name)}"` : '';
    return `<section data-${n.kind}="${n.number}"${label}>${blocks(n.children, o)}</section>`;
  },
};

function blocks(nodes: readonly Block[], o: HtmlOptions): string {
  return nodes.map((b) => (blockHandlers[b.type] as (n: Block, o: HtmlOptions) => string)(b, o)).join('\n');
}

/** Clean, semantic HTML of the tree: a fragment, no <html>/<head>. */
export function renderHtml(tree: Root, options: HtmlOptions = {}): string {
  return blocks(tree.children, options);
}
