import { DocmillError } from '../../errors.ts';
import type { Adapter } from '../types.ts';

// Placeholder until the pdf adapter lands; reports itself honestly instead of returning nothing.
export const adapter: Adapter = {
  name: 'pdf',
  kinds: [],
  async parse() {
    throw new DocmillError(500, 'UNKNOWN_ERROR', 'The pdf adapter is not implemented yet.');
  },
};
