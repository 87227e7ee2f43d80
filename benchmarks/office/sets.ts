import { toMarkdownBytes } from '@firecrawl/anydoc';
import { readCorpus } from '../harness.ts';
import { CORE_BUILD } from './core-build.ts';

// The engine under test (see core-build.ts): the tsc build unless BENCH_OFFICE_CORE=src. The build's
// path is a variable: type checking must not need a build that a fresh clone does not have.
const BUILT = '../../packages/core/dist/index.js';
const { createEngine }: typeof import('@docmill/core') =
  CORE_BUILD === 'src' ? await import('@docmill/core') : await import(BUILT);

/** One format's documents from the shared corpus: files nobody here wrote. */
export interface OfficeSet {
  name: string;
  files: { name: string; bytes: Uint8Array }[];
}

export function officeSets(): OfficeSet[] {
  return [
    {
      name: 'docx',
      files: [...readCorpus('docling/docx/sources', ['.docx']), ...readCorpus('markitdown', ['.docx'])],
    },
    {
      name: 'pptx',
      files: [...readCorpus('docling/pptx/sources', ['.pptx']), ...readCorpus('markitdown', ['.pptx'])],
    },
    { name: 'odt', files: readCorpus('docling/odf/sources', ['.odt']) },
    { name: 'odp', files: readCorpus('docling/odf/sources', ['.odp']) },
    {
      name: 'xlsx',
      files: [...readCorpus('docling/xlsx/sources', ['.xlsx', '.xlsm']), ...readCorpus('markitdown', ['.xlsx'])],
    },
  ];
}

export type OfficeTool = (file: { name: string; bytes: Uint8Array }) => Promise<unknown>;

/** Both tools do the whole job a user asks of them: bytes in, Markdown out. */
export function officeTools(): Record<'docmill' | 'anydoc', OfficeTool> {
  const engine = createEngine();
  return {
    docmill: (f) => engine.parse(f.bytes, { formats: ['markdown'], timeout: 300_000 }, { filename: f.name }),
    anydoc: (f) => toMarkdownBytes(f.bytes),
  };
}
