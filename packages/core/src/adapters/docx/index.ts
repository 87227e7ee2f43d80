// HELPERS (temporary, removed by the lead): read /work/main/AGENTS.md before writing code: shared utils to use,
// no git or pnpm install commands, run only your own tests, deadline 02:20 UTC, report format.
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
