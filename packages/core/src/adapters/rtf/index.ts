import { badInput } from '../../errors.ts';
import { root } from '../../tree/build.ts';
import type { DocumentMetadata } from '../../tree/types.ts';
import type { Adapter } from '../types.ts';
import { readRtf } from './reader.ts';

/**
 * Rich Text Format. The reader interprets the control words in one pass; tables, lists and headings
 * are rebuilt from paragraph properties. Headers, footers, footnotes, comments and shape internals
 * are left out; pictures become image placeholders.
 */

const START = [0x7b, 0x5c, 0x72, 0x74, 0x66]; // "{\rtf"

function rtfStart(bytes: Uint8Array): number {
  // Tolerate a UTF-8 byte-order mark and leading blanks some generators write.
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (
    i < bytes.length &&
    i < 64 &&
    (bytes[i] === 0x20 || bytes[i] === 0x0d || bytes[i] === 0x0a || bytes[i] === 0x09)
  )
    i++;
  return START.every((b, k) => bytes[i + k] === b) ? i : -1;
}

export const adapter: Adapter = {
  name: 'rtf',
  kinds: ['rtf'],
  async parse(bytes, ctx) {
    const at = rtfStart(bytes);
    if (at < 0) throw badInput('The file is not an RTF document (it does not start with "{\\rtf").');
    const { blocks, metadata: info } = readRtf(bytes.subarray(at), {
      signal: ctx.signal,
      keepImages: !ctx.options.removeBase64Images,
      warn: (m) => ctx.warn(m),
    });
    const metadata: DocumentMetadata = {};
    if (info.title) metadata.title = info.title;
    if (info.author) metadata.author = info.author;
    if (info.subject) metadata.subject = info.subject;
    if (info.keywords) metadata.keywords = info.keywords;
    if (info.description) metadata.description = info.description;
    return { tree: root(blocks, metadata) };
  },
};
