import { badInput, DocmillError } from '../../errors.ts';
import { inflateRaw } from '../../util/inflate.ts';
import { parseXml, type XmlElement } from '../../util/xml.ts';
import { closeCutXml } from '../../util/xml-cut.ts';
import { decodeUtf8, openZip, type SafeZip } from '../../util/zip.ts';
import { cutEntry } from '../../util/zip-recover.ts';
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

/**
 * The main part of a package cut short inside it (its zip directory, at the end, is lost with the
 * rest): inflated as far as the data goes, its open elements closed, with a warning. Undefined when
 * the cut fell elsewhere or nothing of the part can be read.
 */
async function cutMainPart(bytes: Uint8Array, name: string, ctx: AdapterContext): Promise<XmlElement | undefined> {
  const part = cutEntry(bytes, ctx.limits.maxZipEntries + 1);
  if (!part || part.name !== name || (part.method !== 0 && part.method !== 8)) return undefined;
  const cap = Math.min(ctx.limits.maxXmlBytes, ctx.limits.maxUnzippedBytes);
  const raw =
    part.method === 8
      ? await inflateRaw(part.data, cap, `The zip entry ${name}`, ctx.signal, true).catch((err: unknown) => {
          if (ctx.signal.aborted) throw err;
          return undefined;
        })
      : part.data.subarray(0, cap);
  if (!raw?.length) return undefined;
  // A character cut in two decodes as U+FFFD at the very end.
  const text = closeCutXml(decodeUtf8(raw).replace(/\uFFFD$/, ''));
  const root = parseXml(text, ctx.limits, name);
  const of = part.uncompressedSize ? ` of ${part.uncompressedSize}` : '';
  ctx.warn(
    `The file is cut short inside ${name}: the document was read up to the cut (${raw.length}${of} bytes of that part); what followed is lost.`,
  );
  return root;
}

export async function openDocx(bytes: Uint8Array, ctx: AdapterContext): Promise<DocxPackage> {
  const zip = await openZip(bytes, ctx.limits, ctx.signal, ctx.warn);
  const relCache = new Map<string, Map<string, Rel>>();
  const read = partReader(zip, ctx.limits);
  // The main part of a file cut short inside it: what the zip kept of it, closed where it ends.
  let cut: XmlElement | undefined;
  const xml = async (name: string) => (cut && name === main ? cut : read(name));
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
  let officeTarget: string | undefined;
  for (const rel of (await rels('')).values()) {
    if (rel.type !== 'officeDocument' || rel.external) continue;
    officeTarget ??= rel.target;
    if (zip.has(rel.target)) {
      main = rel.target;
      break;
    }
  }
  main ??= zip.has('word/document.xml') ? 'word/document.xml' : undefined;
  if (!main) {
    cut = await cutMainPart(bytes, officeTarget ?? 'word/document.xml', ctx);
    if (cut) main = officeTarget ?? 'word/document.xml';
  }
  if (!main) throw badInput('The file is not a Word document (no word/document.xml in the package).');
  const mainPart = main;
  const related = async (type: string) => {
    for (const rel of (await rels(mainPart)).values()) if (rel.type === type && !rel.external) return rel.target;
    return undefined;
  };
  return { zip, main: mainPart, xml, optionalXml, rels, related };
}
