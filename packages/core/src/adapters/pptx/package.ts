import { badInput } from '../../errors.ts';
import { attr, isElement, localName, parseXml, type XmlElement } from '../../util/xml.ts';
import { openZip, type SafeZip } from '../../util/zip.ts';
import type { AdapterContext } from '../types.ts';

/** One relationship of a part: its type (last path segment only) and resolved target. */
export interface Rel {
  type: string;
  target: string;
  external: boolean;
}

export interface Package {
  zip: SafeZip;
  ctx: AdapterContext;
  xml(name: string): Promise<XmlElement | undefined>;
  rels(part: string): Promise<Map<string, Rel>>;
}

/** Children by local name: writers disagree on prefixes, never on local names. */
export function kids(el: XmlElement | undefined, local?: string): XmlElement[] {
  if (!el) return [];
  const out: XmlElement[] = [];
  for (const c of el.children) if (isElement(c) && (local === undefined || localName(c.name) === local)) out.push(c);
  return out;
}

export const kid = (el: XmlElement | undefined, local: string): XmlElement | undefined => kids(el, local)[0];

export function walkPath(el: XmlElement | undefined, ...locals: string[]): XmlElement | undefined {
  let cur = el;
  for (const l of locals) cur = kid(cur, l);
  return cur;
}

export function deep(el: XmlElement | undefined, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  const visit = (e: XmlElement) => {
    for (const c of e.children) {
      if (!isElement(c)) continue;
      if (localName(c.name) === local) out.push(c);
      visit(c);
    }
  };
  if (el) visit(el);
  return out;
}

/** Resolves a relationship target against the folder of the part that owns it. */
export function resolvePart(from: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = from.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

export async function openPackage(bytes: Uint8Array, ctx: AdapterContext): Promise<Package> {
  const zip = await openZip(bytes, ctx.limits, ctx.signal);
  if (!zip.has('ppt/presentation.xml'))
    throw badInput('The file is not a PowerPoint presentation (no ppt/presentation.xml).');
  const xmlCache = new Map<string, XmlElement | undefined>();
  const relCache = new Map<string, Map<string, Rel>>();
  const xml = async (name: string) => {
    if (xmlCache.has(name)) return xmlCache.get(name);
    const text = await zip.text(name);
    const el = text === undefined ? undefined : parseXml(text, ctx.limits, name);
    xmlCache.set(name, el);
    return el;
  };
  const rels = async (part: string) => {
    const cached = relCache.get(part);
    if (cached) return cached;
    const dir = part.split('/').slice(0, -1).join('/');
    const file = part.split('/').pop() as string;
    const el = await xml(`${dir ? `${dir}/` : ''}_rels/${file}.rels`);
    const map = new Map<string, Rel>();
    for (const r of kids(el, 'Relationship')) {
      const id = attr(r, 'Id');
      const target = attr(r, 'Target');
      if (!id || target === undefined) continue;
      const external = attr(r, 'TargetMode') === 'External';
      map.set(id, {
        type: (attr(r, 'Type') ?? '').split('/').pop() ?? '',
        target: external ? target : resolvePart(part, target),
        external,
      });
    }
    relCache.set(part, map);
    return map;
  };
  return { zip, ctx, xml, rels };
}
