import { DocmillError } from '../../errors.ts';
import type { Adapter } from '../types.ts';

// Placeholder until the odp adapter lands; reports itself honestly instead of returning nothing.
export const adapter: Adapter = {
  name: 'odp',
  kinds: [],
  async parse() {
    throw new DocmillError(500, 'UNKNOWN_ERROR', 'The odp adapter is not implemented yet.');
  },
};
