/**
 * One conformance suite for every adapter: each fixture in `fixtures/<family>/` is parsed, then
 * damaged in several ways. Whatever the adapter, the engine must answer with a result or a clear
 * 400, deterministically, within the timeout — never a crash, a 500 or a hang.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { ACCEPTED_EXTENSIONS, createEngine, DocmillError } from '../src/index.ts';
import { fixture, projectRoot } from './helpers/corpus.ts';
import { bitFlipped, prng } from './helpers/damage.ts';

const engine = createEngine();
const fixturesDir = join(projectRoot, 'fixtures');

/** One fixture per extension (the first by name), so every format family is covered once. */
function fixturesByExtension(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        if (name !== 'scripts') walk(p);
        continue;
      }
      const ext = extname(name).toLowerCase();
      if (
        (ACCEPTED_EXTENSIONS as readonly string[]).includes(ext) &&
        !out.has(ext) &&
        !/bomb|broken|damaged|encrypted|password/i.test(name)
      ) {
        out.set(ext, p.slice(fixturesDir.length + 1));
      }
    }
  };
  if (existsSync(fixturesDir)) walk(fixturesDir);
  return out;
}

async function outcome(bytes: Uint8Array, filename: string, timeout = 10000) {
  const t0 = Date.now();
  try {
    const data = await engine.parse(bytes, { timeout }, { filename });
    return { ok: true as const, data, ms: Date.now() - t0 };
  } catch (err) {
    expect(err).toBeInstanceOf(DocmillError);
    return { ok: false as const, err: err as DocmillError, ms: Date.now() - t0 };
  }
}

const cases = [...fixturesByExtension()];

describe.each(cases)('%s adapter conformance (%s)', (ext, rel) => {
  const bytes = fixture(...rel.split('/'));
  const name = rel.split('/').pop() as string;

  it('parses deterministically', async () => {
    const a = await engine.parse(bytes, { formats: ['markdown', 'html', 'links'] }, { filename: name });
    const b = await engine.parse(bytes, { formats: ['markdown', 'html', 'links'] }, { filename: name });
    expect(a.markdown?.trim().length).toBeGreaterThan(0);
    expect(b).toEqual(a);
  });

  it('parses a mislabelled copy as what it is', async () => {
    const wrong = ext === '.pdf' ? 'file.docx' : 'file.pdf';
    // Text formats have no signature: a CSV labelled .pdf is refused; everything else is recognised.
    if (ext === '.csv') return;
    const right = await engine.parse(bytes, {}, { filename: name });
    const mislabelled = await engine.parse(bytes, {}, { filename: wrong });
    expect(mislabelled.markdown).toBe(right.markdown);
  });

  it('answers truncated copies with a result or a clear 400', async () => {
    for (const frac of [0.9, 0.5, 0.1]) {
      const r = await outcome(bytes.subarray(0, Math.max(1, Math.floor(bytes.length * frac))), name);
      if (!r.ok) {
        expect(r.err.status, `${frac}: ${r.err.message}`).toBe(400);
        expect(r.err.message.length).toBeGreaterThan(10);
      }
    }
  });

  it('answers bit-flipped copies with a result or a clear 400, in time', async () => {
    const rand = prng(ext.length * 7919 + bytes.length);
    for (let i = 0; i < 20; i++) {
      const copy = bitFlipped(bytes, rand, 8);
      const r = await outcome(copy, name, 5000);
      if (!r.ok) expect([400, 408], r.err.message).toContain(r.err.status);
      expect(r.ms).toBeLessThan(7000);
    }
  });

  it('refuses random bytes with a clear 400', async () => {
    const rand = prng(42);
    const junk = Uint8Array.from({ length: 4096 }, () => Math.floor(rand() * 256));
    const r = await outcome(junk, name);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.err.status).toBe(400);
  });
});

describe('container bombs', () => {
  it('refuses a zip bomb before inflating it', async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types/>');
    zip.file('word/document.xml', 'A'.repeat(24 * 1024 * 1024));
    const bytes = await zip.generateAsync({
      type: 'uint8array',
      compression: 'DEFLATE',
      compressionOptions: { level: 9 },
    });
    const r = await outcome(bytes, 'bomb.docx');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.err.status).toBe(400);
      expect(r.err.message).toMatch(/zip bomb|inflate/i);
    }
  });

  it('refuses an XML entity bomb without expanding it', async () => {
    const lol = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE lolz [<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`),
      ']>',
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>',
    ].join('\n');
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
    zip.file('word/document.xml', lol);
    const bytes = await zip.generateAsync({ type: 'uint8array' });
    const r = await outcome(bytes, 'lol.docx');
    expect(r.ms).toBeLessThan(5000);
    if (r.ok) expect(r.data.markdown ?? '').not.toContain('lollollol');
    else expect(r.err.status).toBe(400);
  });
});
