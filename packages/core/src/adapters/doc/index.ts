import { once } from '../../util/once.ts';
import type { Adapter, AdapterContext, AdapterOutput } from '../types.ts';

const loadConvert = once(() => import('./convert.ts'));

/** Word 97–2003 binary documents ([MS-DOC]) read natively from their compound file. */
export const adapter: Adapter = {
  name: 'doc',
  kinds: ['doc'],
  async parse(bytes: Uint8Array, ctx: AdapterContext): Promise<AdapterOutput> {
    const { readDoc } = await loadConvert();
    return readDoc(bytes, ctx);
  },
};
