import { badInput, DocmillError } from '../../errors.ts';
import type { XmlElement } from '../../util/xml.ts';
import { openZip, type SafeZip } from '../../util/zip.ts';
import { partReader, type Rel, readRels, relsPartOf } from '../ooxml/opc.ts';
import type { AdapterContext } from '../types.ts';

export type { Rel };

export interface DocxPackage {
  zip: SafeZip;
  /** Zip path of the main document part (usually word/document.xml). */
  main: string;
  xml(name: string): Promise<XmlElement | undefined>;
  /** Like xml() for parts the text survives without: damage there becomes a warning. */
  optionalXml(name: string): Promise<XmlElement | undefined>;
  rels(part: string): Promise<Map<string, Rel>>;
  /** Target of the main part's first relationship of a type (styles, numbering, footnotes…). */
  related(type: string): Promise<string | undefined>;
}

export async function openDocx(bytes: Uint8Array, ctx: AdapterContext): Promise<DocxPackage> {
  const zip = await openZip(bytes, ctx.limits, ctx.signal, ctx.warn, ctx.zipListing);
  const relCache = new Map<string, Map<string, Rel>>();
  const xml = partReader(zip, ctx.limits);
  const damaged = new Set<string>();
  const optionalXml = async (name: string) => {
    if (damaged.has(name)) return undefined;
    try {
      return await xml(name);
    } catch (err) {
      if (!(err instanceof DocmillError) || err.status !== 400) throw err;
      damaged.add(name);
      ctx.warn(`Skipped the damaged part ${name}: ${err.message}`);
      return undefined;
    }
  };
  const rels = async (part: string) => {
    const cached = relCache.get(part);
    if (cached) return cached;
    const map = readRels(await optionalXml(relsPartOf(part)), part);
    relCache.set(part, map);
    return map;
  };
  // The package relationships name the main part; fall back to Word's usual path.
  let main: string | undefined;
  for (const rel of (await rels('')).values()) {
    if (rel.type === 'officeDocument' && !rel.external && zip.has(rel.target)) {
      main = rel.target;
      break;
    }
  }
  main ??= zip.has('word/document.xml') ? 'word/document.xml' : undefined;
  if (!main) throw badInput('The file is not a Word document (no word/document.xml in the package).');
  const mainPart = main;
  const related = async (type: string) => {
    for (const rel of (await rels(mainPart)).values()) if (rel.type === type && !rel.external) return rel.target;
    return undefined;
  };
  return { zip, main: mainPart, xml, optionalXml, rels, related };
}
