import type { FileKind } from '../detect.ts';
import { once } from '../util/once.ts';
import type { Adapter } from './types.ts';

/**
 * Maps each file kind to its adapter, loaded once, on first use, so a host that only parses CSV never
 * loads pdf.js. Each entry's module exports `adapter`.
 */
type Loader = () => Promise<Adapter>;

const loaders: Record<FileKind, Loader> = {
  html: once(() => import('./html/index.ts').then((m) => m.adapter)),
  csv: once(() => import('./csv/index.ts').then((m) => m.adapter)),
  pdf: once(() => import('./pdf/index.ts').then((m) => m.adapter)),
  docx: once(() => import('./docx/index.ts').then((m) => m.adapter)),
  docm: once(() => import('./docx/index.ts').then((m) => m.adapter)),
  wordml: once(() => import('./docx/index.ts').then((m) => m.adapter)),
  odt: once(() => import('./odt/index.ts').then((m) => m.adapter)),
  pptx: once(() => import('./pptx/index.ts').then((m) => m.adapter)),
  pptm: once(() => import('./pptx/index.ts').then((m) => m.adapter)),
  odp: once(() => import('./odp/index.ts').then((m) => m.adapter)),
  xlsx: once(() => import('./sheet/index.ts').then((m) => m.adapter)),
  xlsm: once(() => import('./sheet/index.ts').then((m) => m.adapter)),
  xlsb: once(() => import('./sheet/index.ts').then((m) => m.adapter)),
  xls: once(() => import('./sheet/index.ts').then((m) => m.adapter)),
  ods: once(() => import('./sheet/index.ts').then((m) => m.adapter)),
  doc: once(() => import('./doc/index.ts').then((m) => m.adapter)),
  ppt: once(() => import('./ppt/index.ts').then((m) => m.adapter)),
  rtf: once(() => import('./rtf/index.ts').then((m) => m.adapter)),
  epub: once(() => import('./epub/index.ts').then((m) => m.adapter)),
  image: once(() => import('./image/index.ts').then((m) => m.adapter)),
  text: once(() => import('./text/index.ts').then((m) => m.adapter)),
  markdown: once(() => import('./markdown/index.ts').then((m) => m.adapter)),
  json: once(() => import('./json/index.ts').then((m) => m.adapter)),
  xml: once(() => import('./xml/index.ts').then((m) => m.adapter)),
  ipynb: once(() => import('./notebook/index.ts').then((m) => m.adapter)),
  eml: once(() => import('./email/index.ts').then((m) => m.adapter)),
  mbox: once(() => import('./email/index.ts').then((m) => m.adapter)),
  msg: once(() => import('./email/index.ts').then((m) => m.adapter)),
  zip: once(() => import('./archive/index.ts').then((m) => m.adapter)),
  tar: once(() => import('./archive/index.ts').then((m) => m.adapter)),
};

export type AdapterOverrides = Partial<Record<FileKind, Adapter>>;

export async function adapterFor(kind: FileKind, overrides?: AdapterOverrides): Promise<Adapter> {
  return overrides?.[kind] ?? loaders[kind]();
}
