import { readFileSync } from 'node:fs';
import { createEngine } from './packages/core/src/index.ts';
const engine = createEngine({ stages: [{ name: 'peek', applies: () => true, async run(tree: any, ctx: any) { const info = ctx.adapterOutput.pageInfo ?? {}; for (const [n, c] of Object.entries(info)) if ((c as any).text !== 'text') console.log(process.argv[2], n, JSON.stringify(c)); return tree; } } as any] });
for (const f of process.argv.slice(2)) await engine.parse(readFileSync('../shared/corpus/pdfbench/' + f), { parsers: [{ type: 'pdf', mode: 'auto' }] }, { filename: 'x.pdf' }).catch(e => console.log(f, e.message));
