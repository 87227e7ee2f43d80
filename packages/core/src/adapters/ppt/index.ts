import type { Adapter, AdapterContext, AdapterOutput } from '../types.ts';

/** PowerPoint 97–2003 binary presentations ([MS-PPT]) read natively from their compound file. */
export const adapter: Adapter = {
  name: 'ppt',
  kinds: ['ppt'],
  async parse(bytes: Uint8Array, ctx: AdapterContext): Promise<AdapterOutput> {
    const { readPpt } = await import('./presentation.ts');
    return readPpt(bytes, ctx);
  },
};
