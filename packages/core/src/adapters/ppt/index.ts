import { DocmillError } from '../../errors.ts';
import type { Adapter } from '../types.ts';

// Placeholder until the ppt adapter lands; reports itself honestly instead of returning nothing.
export const adapter: Adapter = {
  name: 'ppt',
  kinds: [],
  async parse() {
    throw new DocmillError(500, 'UNKNOWN_ERROR', 'The ppt adapter is not implemented yet.');
  },
};
