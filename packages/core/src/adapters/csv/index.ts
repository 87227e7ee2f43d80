import { DocmillError } from '../../errors.ts';
import type { Adapter } from '../types.ts';

// Placeholder until the csv adapter lands; reports itself honestly instead of returning nothing.
export const adapter: Adapter = {
  name: 'csv',
  kinds: [],
  async parse() {
    throw new DocmillError(500, 'UNKNOWN_ERROR', 'The csv adapter is not implemented yet.');
  },
};
