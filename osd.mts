import { readFileSync } from 'node:fs';
import { createEngine } from './packages/core/src/index.ts';
import { createOcrStage } from './packages/ocr/src/index.ts';
const ocr = createOcrStage({ workers: 0 });
const engine = createEngine({ stages: [ocr] });
for (const f of process.argv.slice(2)) {
  process.stderr.write(`== ${f}\n`);
  const b = readFileSync(f);
  const isImg = /\.(png|jpg)$/.test(f);
  const r = await engine.parse(b, { parsers: isImg ? ['image'] : [{ type: 'pdf', mode: f.includes('/ocr/') ? 'ocr' : 'auto' }] } as any, { filename: f });
}
await ocr.close();
