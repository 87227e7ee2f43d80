import { throwIfAborted } from '../../errors.ts';
import { paragraph, root } from '../../tree/build.ts';
import type { Block } from '../../tree/types.ts';
import { decodeTextFile } from '../../util/text-file.ts';
import { isElement, parseXml, textOf, type XmlElement } from '../../util/xml.ts';
import { declaredCharset } from '../html/decode.ts';
import type { Adapter } from '../types.ts';
import { feedKind, readFeed } from './feed.ts';

/**
 * XML: RSS and Atom feeds as one section per item (feed.ts); any other document as its text, a
 * paragraph per element that holds text of its own, never its markup. Parsed with the limits of
 * every XML part (size, depth, no entity expansion).
 */

/** Elements visited between abort checks. */
const CHECK_EVERY = 4096;

/** A paragraph per element with character data of its own (mixed content read whole), in document order. */
function textParagraphs(el: XmlElement, signal: AbortSignal): Block[] {
  const out: Block[] = [];
  let visited = 0;
  const stack: XmlElement[] = [el];
  while (stack.length) {
    const e = stack.pop() as XmlElement;
    if (++visited % CHECK_EVERY === 0) throwIfAborted(signal);
    if (e.children.some((c) => typeof c === 'string' && c.trim())) {
      const value = textOf(e).replace(/\s+/g, ' ').trim();
      if (value) out.push(paragraph(value));
      continue;
    }
    for (let i = e.children.length - 1; i >= 0; i--) {
      const c = e.children[i];
      if (isElement(c)) stack.push(c);
    }
  }
  return out;
}

export const adapter: Adapter = {
  name: 'xml',
  kinds: ['xml'],
  async parse(bytes, ctx) {
    throwIfAborted(ctx.signal);
    const { text } = decodeTextFile(bytes, 'XML file', declaredCharset(bytes));
    const doc = parseXml(text.replace(/^\uFEFF/, ''), ctx.limits, 'XML document');
    const kind = feedKind(doc);
    if (kind) {
      const { blocks, metadata } = await readFeed(doc, kind, ctx);
      return { tree: root(blocks, metadata) };
    }
    return { tree: root(textParagraphs(doc, ctx.signal)) };
  },
};
