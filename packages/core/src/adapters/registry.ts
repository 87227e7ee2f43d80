// HELPERS (temporary, removed by the lead): read /work/main/AGENTS.md before writing code: shared utils to use,
// no git or pnpm install commands, run only your own tests, deadline 02:20 UTC, report format.
import type { FileKind } from '../detect.ts';
import type { Adapter } from './types.ts';

/**
 * Maps each file kind to its adapter, loaded on first use so a host that only parses CSV never
 * loads pdf.js. Each entry's module exports `adapter`.
 */
type Loader = () => Promise<Adapter>;

const loaders: Record<FileKind, Loader> = {
  html: () => import('./html/index.ts').then((m) => m.adapter),
  csv: () => import('./csv/index.ts').then((m) => m.adapter),
  pdf: () => import('./pdf/index.ts').then((m) => m.adapter),
  docx: () => import('./docx/index.ts').then((m) => m.adapter),
  docm: () => import('./docx/index.ts').then((m) => m.adapter),
  odt: () => import('./odt/index.ts').then((m) => m.adapter),
  pptx: () => import('./pptx/index.ts').then((m) => m.adapter),
  pptm: () => import('./pptx/index.ts').then((m) => m.adapter),
  odp: () => import('./odp/index.ts').then((m) => m.adapter),
  xlsx: () => import('./sheet/index.ts').then((m) => m.adapter),
  xlsm: () => import('./sheet/index.ts').then((m) => m.adapter),
  xlsb: () => import('./sheet/index.ts').then((m) => m.adapter),
  xls: () => import('./sheet/index.ts').then((m) => m.adapter),
  ods: () => import('./sheet/index.ts').then((m) => m.adapter),
  doc: () => import('./doc/index.ts').then((m) => m.adapter),
  ppt: () => import('./ppt/index.ts').then((m) => m.adapter),
  rtf: () => import('./rtf/index.ts').then((m) => m.adapter),
  epub: () => import('./epub/index.ts').then((m) => m.adapter),
  image: () => import('./image/index.ts').then((m) => m.adapter),
};

export type AdapterOverrides = Partial<Record<FileKind, Adapter>>;

export async function adapterFor(kind: FileKind, overrides?: AdapterOverrides): Promise<Adapter> {
  return overrides?.[kind] ?? loaders[kind]();
}
