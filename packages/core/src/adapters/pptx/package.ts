import { badInput } from '../../errors.ts';
import { parseXml, type XmlElement } from '../../util/xml.ts';
import { openZip, type SafeZip } from '../../util/zip.ts';
import { type Rel, readRels, relsPartOf } from '../ooxml/opc.ts';
import type { AdapterContext } from '../types.ts';

export type { Rel };

export interface Package {
  zip: SafeZip;
  ctx: AdapterContext;
  xml(name: string): Promise<XmlElement | undefined>;
  rels(part: string): Promise<Map<string, Rel>>;
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
    const map = readRels(await xml(relsPartOf(part)), part);
    relCache.set(part, map);
    return map;
  };
  return { zip, ctx, xml, rels };
}
