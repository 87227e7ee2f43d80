import type { DocumentMetadata } from '../../tree/types.ts';
import { textOf, type XmlElement } from '../../util/xml.ts';
import { kid } from './xml.ts';

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Document metadata from docProps/core.xml (Dublin Core) and the page count from app.xml. */
export function readMeta(core: XmlElement | undefined, app: XmlElement | undefined): DocumentMetadata {
  const out: DocumentMetadata = {};
  const first = (local: string) => {
    const v = clean(textOf(kid(core, local)));
    return v || undefined;
  };
  const title = first('title');
  if (title) out.title = title;
  const description = first('description') ?? first('subject');
  if (description) out.description = description;
  const language = first('language');
  if (language) out.language = language;
  const keywords = first('keywords');
  if (keywords) out.keywords = keywords;
  const author = first('creator');
  if (author) out.author = author;
  const pages = Number(clean(textOf(kid(app, 'Pages'))));
  if (Number.isInteger(pages) && pages > 0) out.numPages = pages;
  return out;
}
