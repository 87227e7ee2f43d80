import { DocmillError } from '../../errors.ts';
import type { Adapter } from '../types.ts';

/**
 * Raster images carry no text layer: reading them needs the OCR stage, which this build does not
 * ship yet. Refusing with a 400 tells the caller the request cannot be served, rather than
 * returning an empty document that looks like success.
 */
export const adapter: Adapter = {
  name: 'image',
  kinds: ['image'],
  async parse() {
    throw new DocmillError(
      400,
      'PARSE_UNSUPPORTED_OPTIONS',
      'Parsing raster images needs OCR, which this build of docmill does not include yet; send a PDF or office document instead.',
    );
  },
};
