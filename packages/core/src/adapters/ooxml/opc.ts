import type { Limits } from '../../limits.ts';
import { attr, kids, parseXml, type XmlElement, xmlSection } from '../../util/xml.ts';
import type { SafeZip } from '../../util/zip.ts';

/** One relationship of a part: its type (last URI segment) and its target (zip path or URL). */
export interface Rel {
  type: string;
  target: string;
  external: boolean;
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

/** Zip path of a part's relationships (`''` is the package itself: `_rels/.rels`). */
export function relsPartOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/** The relationships of `part`, read from its parsed `.rels` element, keyed by id. */
export function readRels(el: XmlElement | undefined, part: string): Map<string, Rel> {
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
  return map;
}

/**
 * One section of a part (see `xmlSection`), parsed once per package; undefined when the part or the
 * section is missing. Parts read only for one element (a layout's shapes, the presentation's slide
 * list) are read this way: the rest of the part, often most of it, is not parsed, and damage there
 * does not matter.
 */
export function sectionReader(
  zip: SafeZip,
  limits: Limits,
): (name: string, local: string) => Promise<XmlElement | undefined> {
  const cache = new Map<string, XmlElement | undefined>();
  return async (name, local) => {
    const key = `${local} ${name}`;
    if (cache.has(key)) return cache.get(key);
    const text = await zip.text(name);
    const cut = text === undefined ? undefined : xmlSection(text, local);
    const el = cut === undefined ? undefined : parseXml(cut, limits, name);
    cache.set(key, el);
    return el;
  };
}

/** Parts parsed once per package: `xml(name)` is undefined for a missing part, throws for malformed XML. */
export function partReader(zip: SafeZip, limits: Limits): (name: string) => Promise<XmlElement | undefined> {
  const cache = new Map<string, XmlElement | undefined>();
  return async (name) => {
    if (cache.has(name)) return cache.get(name);
    const text = await zip.text(name);
    const el = text === undefined ? undefined : parseXml(text, limits, name);
    cache.set(name, el);
    return el;
  };
}
