import { once } from '../../util/once.ts';
import type { Adapter, AdapterContext, AdapterOutput } from '../types.ts';

const loadWorkbook = once(() => import('./workbook.ts'));

/** Spreadsheets (OOXML, binary Excel, OpenDocument) read through SheetJS after a zip-bomb check. */
export const adapter: Adapter = {
  name: 'sheet',
  kinds: ['xlsx', 'xlsm', 'xlsb', 'xls', 'ods'],
  async parse(bytes: Uint8Array, ctx: AdapterContext): Promise<AdapterOutput> {
    const { readWorkbook } = await loadWorkbook();
    return readWorkbook(bytes, ctx);
  },
};
