import { readPackageAsset } from '../../../platform/assets.ts';

/** A file name pdf.js asks for: its own CMap names, never a path. */
const dataFile = /^[A-Za-z0-9][A-Za-z0-9_.+-]*\.bcmap$/;

/** CMaps read once a process: each is a few kilobytes, and a document asks for the same ones on every page. */
const cMaps = new Map<string, Promise<Uint8Array | undefined>>();

/**
 * The predefined CMaps pdf.js needs to read the text of CJK fonts (`UniKS-UTF16-H`, `90ms-RKSJ-H`
 * …): pdfjs-dist ships them beside its code, but fetches them only from a `cMapUrl`, which a
 * library cannot know. Without them pdf.js drops every glyph of such a font (the Korean headings of
 * skipped_2pages); PDFium has them built in. Read from the installed package in Node; in browsers
 * the request fails as before (the text of such fonts is lost, the rest of the page read).
 */
export class PackageDataFactory {
  async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
    if (kind !== 'cMapUrl' || !dataFile.test(filename)) throw new Error(`No ${kind} data: ${filename}`);
    let bytes = cMaps.get(filename);
    if (!bytes) {
      bytes = readPackageAsset(`pdfjs-dist/cmaps/${filename}`).catch(() => undefined);
      cMaps.set(filename, bytes);
    }
    const data = await bytes;
    if (!data) throw new Error(`No CMap data: ${filename}`);
    // pdf.js may transfer or keep what it is given: each caller gets its own copy.
    return data.slice();
  }
}
