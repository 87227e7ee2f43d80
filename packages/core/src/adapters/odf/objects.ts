import { DocmillError, throwIfAborted } from '../../errors.ts';
import { image as makeImage } from '../../tree/build.ts';
import type { Block, Inline } from '../../tree/types.ts';
import { attr, child, descendants, elements, localName, parseXml, textOf, type XmlElement } from '../../util/xml.ts';
import type { AdapterContext } from '../types.ts';
import type { ReaderEnv } from './env.ts';
import type { OdfPackage } from './package.ts';
import { frameImage, normalizeHref } from './shapes.ts';
import { readTable } from './table.ts';

const MAX_OBJECTS = 200;

/** Reads content.xml of every embedded object the part references, before the synchronous walk. */
export async function loadObjects(pkg: OdfPackage, ctx: AdapterContext): Promise<Map<string, XmlElement>> {
  const out = new Map<string, XmlElement>();
  if (!pkg.namesObjects) return out;
  const zip = pkg.zip;
  for (const obj of descendants(pkg.content, 'draw:object')) {
    if (out.size >= MAX_OBJECTS) break;
    const href = normalizeHref(attr(obj, 'xlink:href') ?? '');
    if (!href || out.has(href) || /^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
    try {
      const text = await zip.text(`${href}/content.xml`);
      if (text !== undefined) out.set(href, parseXml(text, ctx.limits, `${href}/content.xml`));
    } catch (err) {
      throwIfAborted(ctx.signal);
      if (!(err instanceof DocmillError) || err.status !== 400) throw err;
      ctx.warn(`Skipped embedded object ${href}: ${err.message}`);
    }
  }
  return out;
}

const CHART_NAMES: Record<string, string> = { circle: 'Pie', ring: 'Donut', xy: 'Scatter', 'filled-radar': 'Radar' };

function chartLabel(chart: XmlElement): string {
  const title = textOf(child(chart, 'chart:title')).replace(/\s+/g, ' ').trim();
  if (title) return title;
  const cls = (attr(chart, 'chart:class') ?? '').replace(/^chart:/, '');
  if (!cls) return 'Chart';
  const name = CHART_NAMES[cls] ?? cls.charAt(0).toUpperCase() + cls.slice(1);
  return `${name} chart`;
}

/** A formula's source: the StarMath annotation when present, else the MathML's text. */
function formulaText(math: XmlElement): string {
  const annotation = descendants(math, 'annotation')
    .concat(descendants(math, 'math:annotation'))
    .find((a) => /starmath/i.test(attr(a, 'encoding') ?? ''));
  return (annotation ? textOf(annotation) : textOf(math)).replace(/\s+/g, ' ').trim();
}

function findMath(root: XmlElement): XmlElement | undefined {
  if (localName(root.name) === 'math') return root;
  const body = child(child(root, 'office:body'), 'office:formula');
  return body ? elements(body).find((e) => localName(e.name) === 'math') : undefined;
}

/**
 * Embedded objects: a chart becomes its picture (named after the chart) and its data table; a
 * formula becomes inline math. Anything else falls back to the frame's replacement picture.
 */
export function objectContent(
  frame: XmlElement,
  object: XmlElement,
  env: ReaderEnv,
): { blocks: Block[]; inline?: Inline[] } | undefined {
  const root = env.objects.get(normalizeHref(attr(object, 'xlink:href') ?? ''));
  if (!root) return undefined;
  const math = findMath(root);
  if (math) {
    const value = formulaText(math);
    if (!value) return undefined;
    return { blocks: [{ type: 'math', value }], inline: [{ type: 'inlineMath', value }] };
  }
  const chart = child(child(child(root, 'office:body'), 'office:chart'), 'chart:chart');
  if (!chart) return undefined;
  const label = chartLabel(chart);
  const blocks: Block[] = [];
  const picture = frameImage(frame, env, label) ?? makeImage(label);
  blocks.push(picture);
  const data = child(chart, 'table:table');
  const table = data ? readTable(data, env) : undefined;
  if (table) blocks.push(table);
  return { blocks };
}
