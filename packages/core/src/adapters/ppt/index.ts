import { once } from '../../util/once.ts';
import type { Adapter, AdapterContext, AdapterOutput } from '../types.ts';

const loadPresentation = once(() => import('./presentation.ts'));

/** PowerPoint 97–2003 binary presentations ([MS-PPT]) read natively from their compound file. */
export const adapter: Adapter = {
  name: 'ppt',
  kinds: ['ppt'],
  async parse(bytes: Uint8Array, ctx: AdapterContext): Promise<AdapterOutput> {
    const { readPpt } = await loadPresentation();
    return readPpt(bytes, ctx);
  },
};
