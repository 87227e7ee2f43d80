import { DocmillError } from '../../errors.ts';
import type { Adapter } from '../types.ts';

// Placeholder until the docx adapter lands; reports itself honestly instead of returning nothing.
export const adapter: Adapter = {
  name: 'docx',
  kinds: [],
  async parse() {
    throw new DocmillError(500, 'UNKNOWN_ERROR', 'The docx adapter is not implemented yet.');
  },
};
