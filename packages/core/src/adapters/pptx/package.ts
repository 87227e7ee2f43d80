import { badInput } from '../../errors.ts';
import type { XmlElement } from '../../util/xml.ts';
import { openZip, type SafeZip } from '../../util/zip.ts';
import { partReader, type Rel, readRels, relsPartOf, sectionReader } from '../ooxml/opc.ts';
import type { AdapterContext } from '../types.ts';

export type { Rel };

export interface Package {
  zip: SafeZip;
  ctx: AdapterContext;
  xml(name: string): Promise<XmlElement | undefined>;
  /** One element of a part, parsed alone (`sectionReader`). */
  section(name: string, local: string): Promise<XmlElement | undefined>;
  rels(part: string): Promise<Map<string, Rel>>;
}

export async function openPackage(bytes: Uint8Array, ctx: AdapterContext): Promise<Package> {
  const zip = await openZip(bytes, ctx.limits, ctx.signal, ctx.warn, ctx.zipListing);
  if (!zip.has('ppt/presentation.xml'))
    throw badInput('The file is not a PowerPoint presentation (no ppt/presentation.xml).');
  const relCache = new Map<string, Map<string, Rel>>();
  const xml = partReader(zip, ctx.limits);
  const rels = async (part: string) => {
    const cached = relCache.get(part);
    if (cached) return cached;
    const map = readRels(await xml(relsPartOf(part)), part);
    relCache.set(part, map);
    return map;
  };
  return { zip, ctx, xml, section: sectionReader(zip, ctx.limits), rels };
}
