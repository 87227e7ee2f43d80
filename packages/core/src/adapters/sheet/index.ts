import { DocmillError } from '../../errors.ts';
import type { Adapter } from '../types.ts';

// Placeholder until the sheet adapter lands; reports itself honestly instead of returning nothing.
export const adapter: Adapter = {
  name: 'sheet',
  kinds: [],
  async parse() {
    throw new DocmillError(500, 'UNKNOWN_ERROR', 'The sheet adapter is not implemented yet.');
  },
};
