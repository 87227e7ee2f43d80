/**
 * `tsx scripts/office-dump.ts <out-dir>`: parses every office file of `fixtures/` and
 * `../shared/corpus` (zip- and XML-based formats, and the binary ones that share their helpers) and
 * writes each one's Markdown, HTML, warning and error under `<out-dir>`, mirroring the source paths.
 * Run it on two commits and `diff -r` the folders: a change to the XML, zip or spreadsheet readers
 * must leave every output byte-identical unless it says otherwise.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createEngine, DocmillError } from '../packages/core/src/index.ts';

const OFFICE = /\.(docx|docm|dotx|xlsx|xlsm|xlsb|xls|pptx|pptm|ppt|doc|odt|ods|odp|epub|xml)$/i;
/** The passwords of the fixtures named password* (from the scripts that made them): decryption then feeds the zip reader. */
const password = (name: string) =>
  name === 'password.odp' ? 'Pässwört-ß' : /^password/.test(name) ? 'Tr0ub4dor&3' : undefined;

const root = resolve(import.meta.dirname, '..');
const out = process.argv[2];
if (!out) throw new Error('usage: tsx scripts/office-dump.ts <out-dir>');

function walk(dir: string, acc: string[] = []): string[] {
  if (!existsSync(dir)) return acc;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, acc);
    else if (OFFICE.test(name)) acc.push(p);
  }
  return acc;
}

const corpus = resolve(root, '../shared/corpus');
const files = [...walk(join(root, 'fixtures')), ...walk(corpus)];
const engine = createEngine();
for (const file of files) {
  const rel = file.startsWith(corpus) ? join('corpus', relative(corpus, file)) : relative(root, file);
  const name = file.split('/').pop() as string;
  const target = join(out, rel);
  mkdirSync(dirname(target), { recursive: true });
  const bytes = new Uint8Array(readFileSync(file));
  try {
    const res = await engine.parse(
      bytes,
      { formats: ['markdown', 'html'], timeout: 300_000 },
      { filename: name, password: password(name) },
    );
    writeFileSync(`${target}.md`, res.markdown ?? '');
    writeFileSync(`${target}.html`, res.html ?? '');
    writeFileSync(`${target}.meta`, `${JSON.stringify({ warning: res.warning, metadata: res.metadata }, null, 1)}\n`);
  } catch (err) {
    const e = err instanceof DocmillError ? { status: err.status, code: err.code, message: err.message } : String(err);
    writeFileSync(`${target}.error`, `${JSON.stringify(e, null, 1)}\n`);
  }
}
console.log(`${files.length} files dumped to ${out}`);
