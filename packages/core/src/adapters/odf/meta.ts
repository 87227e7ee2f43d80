import type { DocumentMetadata } from '../../tree/types.ts';
import { child, elements, textOf, type XmlElement } from '../../util/xml.ts';

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Document metadata from meta.xml (Dublin Core plus ODF's meta: fields). */
export function readMeta(meta: XmlElement | undefined): DocumentMetadata {
  const out: DocumentMetadata = {};
  const office = child(meta, 'office:meta');
  if (!office) return out;
  const first = (name: string) => {
    const v = clean(textOf(child(office, name)));
    return v || undefined;
  };
  const title = first('dc:title');
  if (title) out.title = title;
  const description = first('dc:description') ?? first('dc:subject');
  if (description) out.description = description;
  const language = first('dc:language');
  if (language) out.language = language;
  const keywords = elements(office, 'meta:keyword')
    .map((k) => clean(textOf(k)))
    .filter(Boolean);
  if (keywords.length) out.keywords = keywords.join(', ');
  const author = first('meta:initial-creator') ?? first('dc:creator');
  if (author) out.author = author;
  return out;
}

/** Page count the writer stored when saving (meta:document-statistic), if any. */
export function storedPageCount(meta: XmlElement | undefined): number | undefined {
  const stats = child(child(meta, 'office:meta'), 'meta:document-statistic');
  const n = Number(stats?.attrs['meta:page-count']);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}
