import { once } from '../../util/once.ts';
import type { Adapter, AdapterContext, AdapterOutput } from '../types.ts';

const loadPresentation = once(() => import('./presentation.ts'));

/** PowerPoint 2007+ presentations (.pptx, .pptm): one slide section per slide, notes as quotes. */
export const adapter: Adapter = {
  name: 'pptx',
  kinds: ['pptx', 'pptm'],
  async parse(bytes: Uint8Array, ctx: AdapterContext): Promise<AdapterOutput> {
    const { readPresentation } = await loadPresentation();
    return readPresentation(bytes, ctx);
  },
};
