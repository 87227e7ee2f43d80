import { DocmillError } from '../../errors.ts';
import type { Adapter } from '../types.ts';

// Placeholder until the odt adapter lands; reports itself honestly instead of returning nothing.
export const adapter: Adapter = {
  name: 'odt',
  kinds: [],
  async parse() {
    throw new DocmillError(500, 'UNKNOWN_ERROR', 'The odt adapter is not implemented yet.');
  },
};
