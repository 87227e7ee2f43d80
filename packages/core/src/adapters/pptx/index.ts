import { DocmillError } from '../../errors.ts';
import type { Adapter } from '../types.ts';

// Placeholder until the pptx adapter lands; reports itself honestly instead of returning nothing.
export const adapter: Adapter = {
  name: 'pptx',
  kinds: [],
  async parse() {
    throw new DocmillError(500, 'UNKNOWN_ERROR', 'The pptx adapter is not implemented yet.');
  },
};
