import type { DocumentMetadata } from '../../tree/types.ts';
import { normTitle } from './blocks.ts';
import type { PdfDocument } from './pdfjs.ts';

interface OutlineNode {
  title: string;
  items: OutlineNode[];
}

/** Outline (bookmark) titles with their depth (1-based); headings found in the text use them. */
export async function outlineTitles(doc: PdfDocument): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let nodes: OutlineNode[] | null = null;
  try {
    nodes = (await doc.getOutline()) as OutlineNode[] | null;
  } catch {
    return out;
  }
  const walk = (list: OutlineNode[], depth: number): void => {
    for (const n of list) {
      if (out.size > 5000) return;
      const t = normTitle(n.title ?? '');
      if (t && !out.has(t)) out.set(t, Math.min(6, depth));
      if (n.items?.length && depth < 6) walk(n.items, depth + 1);
    }
  };
  if (nodes) walk(nodes, 1);
  return out;
}

/** Title, author, subject, keywords and language from the info dictionary, then XMP. */
export async function documentInfo(doc: PdfDocument): Promise<DocumentMetadata> {
  const md: DocumentMetadata = {};
  try {
    const m = await doc.getMetadata();
    const info = (m.info ?? {}) as Record<string, unknown>;
    const xmp = m.metadata as { get(name: string): unknown } | null;
    const pick = (...vals: unknown[]): string | undefined => {
      for (const v of vals) if (typeof v === 'string' && v.trim()) return v.replace(/\s+/g, ' ').trim();
      return undefined;
    };
    const title = pick(info.Title, xmp?.get('dc:title'));
    if (title) md.title = title;
    const author = pick(info.Author, xmp?.get('dc:creator'));
    if (author) md.author = author;
    const subject = pick(info.Subject, xmp?.get('dc:description'));
    if (subject) md.description = subject;
    const keywords = pick(info.Keywords, xmp?.get('pdf:keywords'));
    if (keywords) md.keywords = keywords;
    const lang = pick(info.Language, xmp?.get('dc:language'));
    if (lang) md.language = lang;
  } catch {
    // Broken metadata must not cost the document's text.
  }
  return md;
}
