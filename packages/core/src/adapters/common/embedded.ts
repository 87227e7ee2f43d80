import { DocmillError } from '../../errors.ts';
import { clampDepth } from '../../tree/build.ts';
import type { Block } from '../../tree/types.ts';
import { walk } from '../../tree/walk.ts';

/**
 * Helpers for containers (mail, archives) that hold documents parsed through `ctx.embed`.
 */

/** A document's blocks under a heading of depth `under`: its own headings moved below it. */
export function nestUnder(blocks: Block[], under: number): Block[] {
  for (const b of blocks)
    walk(b, (n) => {
      if (n.type === 'heading') n.depth = clampDepth(n.depth + under);
      return undefined;
    });
  return blocks;
}

const IMAGE = /\.(png|jpe?g|tiff?|gif|bmp|webp)$/i;

/** Why an embedded document was skipped, short enough for a list in `warning`. */
export function skipReason(err: DocmillError, name: string): string {
  if (err.code === 'UNSUPPORTED_FILE_TYPE')
    return IMAGE.test(name) ? 'an image: read only with the image parser' : 'unsupported type';
  return err.message.replace(/\.$/, '');
}

/** True for what a container lists as skipped (the document's own problem), false for what must fail the parse. */
export const isSkippable = (err: unknown, signal: AbortSignal): err is DocmillError =>
  !signal.aborted && err instanceof DocmillError && err.status < 500;
