import { DocmillError } from '../../errors.ts';
import type { Adapter } from '../types.ts';

// Placeholder until the image adapter lands; reports itself honestly instead of returning nothing.
export const adapter: Adapter = {
  name: 'image',
  kinds: [],
  async parse() {
    throw new DocmillError(500, 'UNKNOWN_ERROR', 'The image adapter is not implemented yet.');
  },
};
