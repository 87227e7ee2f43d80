import { DocmillError } from '../../errors.ts';
import type { Adapter } from '../types.ts';

// Placeholder until the html adapter lands; reports itself honestly instead of returning nothing.
export const adapter: Adapter = {
  name: 'html',
  kinds: [],
  async parse() {
    throw new DocmillError(500, 'UNKNOWN_ERROR', 'The html adapter is not implemented yet.');
  },
};
