import { badInput, DocmillError, throwIfAborted } from '../../errors.ts';
import { child, parseXml, type XmlElement } from '../../util/xml.ts';
import { openZip, type SafeZip } from '../../util/zip.ts';
import type { AdapterContext } from '../types.ts';
import { decryptOdf } from './decrypt.ts';

/** The parts of an OpenDocument package every ODF adapter reads. */
export interface OdfPackage {
  zip: SafeZip;
  content: XmlElement;
  /**
   * Whether content.xml holds a `<draw:object` at all: element names are read verbatim, so without
   * one the whole tree need not be searched for embedded objects.
   */
  namesObjects: boolean;
  /** Whether content.xml holds a `<text:soft-page-break` at all: without one there are no pages to count. */
  softPageBreaks: boolean;
  /** styles.xml root; absent or unreadable styles only cost formatting, so it is optional. */
  styles?: XmlElement;
  meta?: XmlElement;
}

/** Parses an optional part; a damaged one becomes a warning, a timeout still propagates. */
async function optionalPart(zip: SafeZip, name: string, ctx: AdapterContext): Promise<XmlElement | undefined> {
  try {
    const text = await zip.text(name);
    return text === undefined ? undefined : parseXml(text, ctx.limits, name);
  } catch (err) {
    throwIfAborted(ctx.signal);
    if (err instanceof DocmillError && err.status === 400) {
      ctx.warn(`Skipped ${name}: ${err.message}`);
      return undefined;
    }
    throw err;
  }
}

export async function openOdf(bytes: Uint8Array, ctx: AdapterContext): Promise<OdfPackage> {
  const zip = await decryptOdf(await openZip(bytes, ctx.limits, ctx.signal, ctx.warn, ctx.zipListing), ctx);
  const contentText = await zip.text('content.xml');
  if (contentText === undefined) throw badInput('The OpenDocument file has no content.xml (damaged or incomplete).');
  const content = parseXml(contentText, ctx.limits, 'content.xml');
  const styles = await optionalPart(zip, 'styles.xml', ctx);
  const meta = await optionalPart(zip, 'meta.xml', ctx);
  const pkg: OdfPackage = {
    zip,
    content,
    namesObjects: contentText.includes('<draw:object'),
    softPageBreaks: contentText.includes('<text:soft-page-break'),
  };
  if (styles) pkg.styles = styles;
  if (meta) pkg.meta = meta;
  return pkg;
}

/** The office:body child holding the document (`office:text`, `office:presentation`). */
export function officeBody(pkg: OdfPackage, name: string, what: string): XmlElement {
  const body = child(child(pkg.content, 'office:body'), name);
  if (!body) throw badInput(`content.xml has no ${name} body: not an OpenDocument ${what}, or damaged.`);
  return body;
}
