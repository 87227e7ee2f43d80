import { throwIfAborted } from '../../errors.ts';
import { root } from '../../tree/build.ts';
import { decodeTextFile } from '../../util/text-file.ts';
import type { Adapter } from '../types.ts';
import { plainTextBlocks } from './blocks.ts';

/**
 * Plain text (`.txt`, `.text`, `.log`): decoded as HTML and CSV are (byte-order mark, then the
 * bytes: UTF-8, UTF-16, Shift-JIS or Windows-1252), then paragraphs with their line breaks.
 */
export const adapter: Adapter = {
  name: 'text',
  kinds: ['text'],
  async parse(bytes, ctx) {
    throwIfAborted(ctx.signal);
    const { text } = decodeTextFile(bytes, 'text file');
    return { tree: root(plainTextBlocks(text, ctx.signal)) };
  },
};
