/**
 * Word 2003 XML ("WordprocessingML 2003": one `<w:wordDocument>` file, often saved as .doc or .xml).
 * Its paragraphs, runs, tables, fields and styles use the element names DOCX kept, so the document is
 * rewritten into the DOCX shapes where the two differ (lists, hyperlinks, inline notes, pictures as
 * base64, wrapper elements) and then read by the DOCX block reader: one copy of that logic.
 */

import { append } from '../../util/arrays.ts';
import { attr, isElement, localName, parseXml, type XmlElement, type XmlNode } from '../../util/xml.ts';
import { decodeUtf8, openZip, type SafeZip, storedZip } from '../../util/zip.ts';
import type { Rel } from '../ooxml/opc.ts';
import type { AdapterContext } from '../types.ts';
import { kid, kids } from './xml.ts';

export { isWordMl2003, WORDML_2003_NS } from './wordml-sniff.ts';

/** Word 2003 `w:nfc` number format codes → DOCX `w:numFmt` values. */
const NFC: Record<string, string> = {
  '0': 'decimal',
  '1': 'upperRoman',
  '2': 'lowerRoman',
  '3': 'upperLetter',
  '4': 'lowerLetter',
  '5': 'ordinal',
  '22': 'decimalZero',
  '23': 'bullet',
  '255': 'none',
};

/** Wrappers around blocks (sections, sub-sections, bordered groups) that carry no content of their own. */
const WRAPPERS = new Set(['sect', 'sub-section', 'pBdrGroup']);

export interface WordMl2003 {
  body: XmlElement;
  styles: XmlElement | undefined;
  /** The `w:lists` element rewritten as a DOCX numbering part. */
  numbering: XmlElement;
  /** Notes written inline, by the ids given to their references. */
  footnotes: Map<string, XmlElement>;
  endnotes: Map<string, XmlElement>;
  /** Hyperlink and picture targets, by the relationship ids given to them. */
  rels: Map<string, Rel>;
  /** Pictures (base64 `w:binData`) as a zip, so the shared image code can inline them. */
  media: SafeZip;
  /** Document properties rewritten as core.xml and app.xml shapes. */
  core?: XmlElement;
  app?: XmlElement;
}

const el = (name: string, attrs: Record<string, string>, children: XmlNode[] = []): XmlElement => ({
  name,
  attrs,
  children,
});

function base64Bytes(text: string): Uint8Array | undefined {
  try {
    const bin = atob(text.replace(/\s+/g, ''));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/** `wordml://03000001.png` → a zip path the image code can resolve. */
const mediaPath = (src: string) => `media/${src.replace(/^wordml:\/\//, '').replace(/[^\w.-]/g, '_')}`;

class Rewriter {
  readonly footnotes = new Map<string, XmlElement>();
  readonly endnotes = new Map<string, XmlElement>();
  readonly rels = new Map<string, Rel>();
  readonly media: [string, Uint8Array][] = [];

  /** Rewrites a list of nodes; wrappers are replaced by their rewritten children. */
  nodes(list: XmlNode[]): XmlNode[] {
    const out: XmlNode[] = [];
    for (const n of list) {
      if (!isElement(n)) {
        out.push(n);
        continue;
      }
      append(out, this.element(n));
    }
    return out;
  }

  private element(e: XmlElement): XmlNode[] {
    const local = localName(e.name);
    const ns = e.name.includes(':') ? e.name.slice(0, e.name.indexOf(':')) : '';
    if (ns === 'wx' && WRAPPERS.has(local)) return this.nodes(e.children);
    if (ns === 'aml' && local === 'annotation') return this.annotation(e);
    switch (local) {
      case 'listPr':
        return [this.listPr(e)];
      case 'hlink':
        return [this.hlink(e)];
      case 'footnote':
      case 'endnote':
        if (ns !== 'w') break;
        return [this.note(e, local)];
      case 'binData': {
        const name = attr(e, 'w:name');
        const data = base64Bytes(e.children.filter((c) => typeof c === 'string').join(''));
        if (name && data) this.media.push([mediaPath(name), data]);
        return [];
      }
      case 'imagedata': {
        const src = attr(e, 'src');
        if (!src) break;
        const id = `wordml-image-${this.rels.size + 1}`;
        this.rels.set(id, { type: 'image', target: mediaPath(src), external: !src.startsWith('wordml://') });
        return [el(e.name, { ...e.attrs, 'r:id': id })];
      }
      case 'vmerge':
        return [el('w:vMerge', e.attrs)];
      case 'r':
        // A run holding runs (as some exporters write inside links) is read as those runs.
        if (e.children.some((c) => isElement(c) && localName(c.name) === 'r'))
          return this.nodes(e.children.filter((c) => !(isElement(c) && localName(c.name) === 'rPr')));
        break;
    }
    return [el(e.name, e.attrs, this.nodes(e.children))];
  }

  /** `w:listPr` (`w:ilvl`, `w:ilfo`) → `w:numPr` (`w:ilvl`, `w:numId`). */
  private listPr(e: XmlElement): XmlElement {
    const out: XmlNode[] = [];
    const ilvl = kid(e, 'ilvl');
    const ilfo = kid(e, 'ilfo');
    if (ilvl) out.push(el('w:ilvl', ilvl.attrs));
    if (ilfo) out.push(el('w:numId', { 'w:val': attr(ilfo, 'w:val') ?? '0' }));
    return el('w:numPr', {}, out);
  }

  /** `w:hlink w:dest` (external) / `w:bookmark` (inside the document) → `w:hyperlink`. */
  private hlink(e: XmlElement): XmlElement {
    const attrs: Record<string, string> = {};
    const dest = attr(e, 'w:dest');
    if (dest) {
      const id = `wordml-link-${this.rels.size + 1}`;
      this.rels.set(id, { type: 'hyperlink', target: dest, external: true });
      attrs['r:id'] = id;
    }
    const bookmark = attr(e, 'w:bookmark');
    if (bookmark) attrs['w:anchor'] = bookmark;
    return el('w:hyperlink', attrs, this.nodes(e.children));
  }

  /** A note written where it is referenced → a reference, its body kept for the note reader. */
  private note(e: XmlElement, kind: 'footnote' | 'endnote'): XmlElement {
    const bodies = kind === 'footnote' ? this.footnotes : this.endnotes;
    const id = String(bodies.size + 1);
    bodies.set(id, el(e.name, { 'w:id': id }, this.nodes(e.children)));
    return el(kind === 'footnote' ? 'w:footnoteReference' : 'w:endnoteReference', { 'w:id': id });
  }

  /** Tracked changes and comments: insertions are text, deletions and comments are not. */
  private annotation(e: XmlElement): XmlNode[] {
    const type = attr(e, 'w:type') ?? '';
    if (type !== 'Word.Insertion') return [];
    return this.nodes(kid(e, 'content')?.children ?? []);
  }
}

/** `w:lists` (`w:listDef` + `w:list`) → a DOCX numbering part (`w:abstractNum` + `w:num`). */
function numberingOf(lists: XmlElement | undefined): XmlElement {
  const out: XmlNode[] = [];
  for (const def of kids(lists, 'listDef')) {
    const levels = kids(def, 'lvl').map((lvl) => {
      const nfc = attr(kid(lvl, 'nfc'), 'w:val');
      const rest = lvl.children.filter((c) => !(isElement(c) && localName(c.name) === 'nfc'));
      return el(lvl.name, lvl.attrs, [el('w:numFmt', { 'w:val': NFC[nfc ?? '0'] ?? 'decimal' }), ...rest]);
    });
    out.push(el('w:abstractNum', { 'w:abstractNumId': attr(def, 'w:listDefId') ?? '' }, levels));
  }
  for (const list of kids(lists, 'list')) {
    const children: XmlNode[] = [el('w:abstractNumId', { 'w:val': attr(kid(list, 'ilst'), 'w:val') ?? '' })];
    // Restarts are written as level overrides, as in DOCX.
    for (const o of kids(list, 'lvlOverride')) children.push(o);
    out.push(el('w:num', { 'w:numId': attr(list, 'w:ilfo') ?? '' }, children));
  }
  return el('w:numbering', {}, out);
}

/**
 * Style names as LibreOffice writes them carry ODF's escaped spaces (`Heading_20_1`); decoded, the
 * built-in names (`Heading 1`) are recognised like Word's own (`heading 1`).
 */
function decodeStyleNames(styles: XmlElement | undefined): void {
  for (const s of kids(styles, 'style')) {
    const name = kid(s, 'name');
    const v = attr(name, 'w:val');
    if (name && v)
      name.attrs['w:val'] = v.replace(/_([0-9a-f]{2})_/gi, (_m: string, h: string) =>
        String.fromCharCode(Number.parseInt(h, 16)),
      );
  }
}

/** `o:DocumentProperties` → the core.xml/app.xml shapes the DOCX metadata reader takes. */
function propertiesOf(props: XmlElement | undefined): { core?: XmlElement; app?: XmlElement } {
  if (!props) return {};
  const map: Record<string, string> = {
    Title: 'dc:title',
    Subject: 'dc:subject',
    Author: 'dc:creator',
    Keywords: 'cp:keywords',
    Description: 'dc:description',
  };
  const core: XmlNode[] = [];
  const app: XmlNode[] = [];
  for (const p of kids(props)) {
    const local = localName(p.name);
    const name = map[local];
    if (name) core.push(el(name, {}, p.children));
    if (local === 'Pages') app.push(el('Pages', {}, p.children));
  }
  return { core: el('cp:coreProperties', {}, core), app: el('Properties', {}, app) };
}

export async function readWordMl2003(bytes: Uint8Array, ctx: AdapterContext): Promise<WordMl2003 | undefined> {
  const doc = parseXml(decodeUtf8(bytes), ctx.limits, 'Word 2003 XML document');
  if (localName(doc.name) !== 'wordDocument') return undefined;
  const body = kid(doc, 'body');
  if (!body) return undefined;
  const rewriter = new Rewriter();
  const rewritten = el(body.name, body.attrs, rewriter.nodes(body.children));
  const styles = kid(doc, 'styles');
  decodeStyleNames(styles);
  const stylesOut = styles ? el(styles.name, styles.attrs, rewriter.nodes(styles.children)) : undefined;
  const media = await openZip(storedZip(rewriter.media), ctx.limits, ctx.signal);
  return {
    body: rewritten,
    styles: stylesOut,
    numbering: numberingOf(kid(doc, 'lists')),
    footnotes: rewriter.footnotes,
    endnotes: rewriter.endnotes,
    rels: rewriter.rels,
    media,
    ...propertiesOf(kid(doc, 'DocumentProperties')),
  };
}
