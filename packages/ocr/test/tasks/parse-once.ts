// Parses one image with the OCR stage and prints its Markdown: the disk and console tests run this in
// a process whose working directory and TMPDIR are empty folders of its own. argv[3]: OCR workers.
import { readFileSync } from 'node:fs';
import { createEngine } from '@docmill/core';
import { createOcrStage } from '../../src/index.ts';

const file = process.argv[2] as string;
const engine = createEngine({ stages: [createOcrStage({ workers: Number(process.argv[3] ?? 1) })] });
try {
  const r = await engine.parse(
    new Uint8Array(readFileSync(file)),
    { parsers: ['image'], timeout: 300_000 },
    { filename: 'x.png' },
  );
  process.stdout.write(r.markdown ?? '');
} finally {
  await engine.close();
}
