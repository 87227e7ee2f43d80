import { cell, paragraph, row, table } from '../../tree/build.ts';
import type { Block } from '../../tree/types.ts';
import { maxOf } from '../../util/arrays.ts';
import { attr, deep, kid, kids, textOf, walk, type XmlElement } from '../../util/xml.ts';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Cached points of a c:strRef/c:numRef/c:strLit/c:numLit, by index. */
function points(el: XmlElement | undefined): Map<number, string> {
  const out = new Map<number, string>();
  for (const pt of deep(el, 'pt')) {
    const idx = Number(attr(pt, 'idx'));
    if (Number.isSafeInteger(idx) && idx >= 0) out.set(idx, textOf(kid(pt, 'v')).trim());
  }
  return out;
}

/** The chart's title and its cached data as a small table (categories down, one column per series). */
export function chartBlocks(space: XmlElement | undefined): Block[] {
  const chart = kid(space, 'chart');
  const out: Block[] = [];
  const title = deep(kid(chart, 'title'), 't')
    .map((t) => textOf(t))
    .join('')
    .trim();
  if (title) out.push(paragraph(title));
  const plot = kid(chart, 'plotArea');
  const series = kids(plot)
    .filter((e) => e.name.endsWith('Chart'))
    .flatMap((c) => kids(c, 'ser'));
  if (!series.length) return out;
  const names: string[] = [];
  const columns: Map<number, string>[] = [];
  let cats = new Map<number, string>();
  series.forEach((s, i) => {
    const name = deep(kid(s, 'tx'), 'v')[0] ?? deep(kid(s, 'tx'), 't')[0];
    names.push(name ? textOf(name).trim() : `Series ${i + 1}`);
    const c = points(kid(s, 'cat') ?? kid(s, 'xVal'));
    if (c.size > cats.size) cats = c;
    columns.push(points(kid(s, 'val') ?? kid(s, 'yVal')));
  });
  // A blank source cell leaves its index out of every cache, and keeps its row (a gap in the series).
  // A damaged or hostile cache puts a point at idx="2000000000": past a few gaps per point, only
  // the indices that hold something get a row.
  const indices = new Set(cats.keys());
  for (const c of columns) for (const i of c.keys()) indices.add(i);
  if (!indices.size) return out;
  const last = maxOf(indices);
  const order = last < 2 * indices.size + 64 ? range(last + 1) : [...indices].sort((x, y) => x - y);
  const rows = [row([cell('', { header: true }), ...names.map((n) => cell(n, { header: true }))])];
  for (const i of order) {
    rows.push(row([cell(cats.get(i) ?? String(i + 1)), ...columns.map((c) => cell(c.get(i) ?? ''))]));
  }
  out.push(table(rows));
  return out;
}

/** Chart space element of a chart part, if the part parses. */
export const chartSpace = (doc: XmlElement | undefined): XmlElement | undefined =>
  doc?.name.endsWith('chartSpace') ? doc : walk(doc, 'chartSpace');
