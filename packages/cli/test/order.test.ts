import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createEngine, type Engine } from '@docmill/core';
import { afterAll, describe, expect, it } from 'vitest';
import { estimateCost, largeImages, longestFirst } from '../src/cost.ts';
import { convertFolder, startOrder } from '../src/folder.ts';

const root = resolve(import.meta.dirname, '../../..');
const fixtures = join(root, 'fixtures');
const temps: string[] = [];
const tempDir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  temps.push(d);
  return d;
};
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const bytesOf = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

describe('cost estimate', () => {
  it('counts large images from their stream dictionaries, not small ones or sizes given by reference', () => {
    const pdf = [
      '1 0 obj << /Type /XObject /Subtype /Image /Width 2480 /Height 3508 /BitsPerComponent 8 >> stream\nxx\nendstream endobj',
      '2 0 obj << /Type /XObject /Subtype/Image /Width 64 /Height 64 >> stream\nxx\nendstream endobj',
      '3 0 obj << /Subtype /Image /Width 12 0 R /Height 3000 >> stream\nxx\nendstream endobj',
      '4 0 obj << /Height 1650 /Subtype /Image /Width 1275 >>\nstream\nxx\nendstream endobj',
    ].join('\n');
    expect(largeImages(bytesOf(pdf))).toBe(2);
  });

  it('ranks a scanned PDF above a larger text PDF, and raster images as one OCR page', () => {
    const scanned = new Uint8Array(readFileSync(join(fixtures, 'pdf/scanned.pdf')));
    const text = new Uint8Array(readFileSync(join(fixtures, 'pdf/tables.pdf')));
    const scanCost = estimateCost('scanned.pdf', scanned.byteLength, scanned);
    expect(scanCost).toBeGreaterThan(2);
    expect(estimateCost('tables.pdf', text.byteLength, text)).toBeLessThan(0.01);
    // Without the bytes only the size counts.
    expect(estimateCost('scanned.pdf', scanned.byteLength)).toBeLessThan(0.1);
    expect(estimateCost('page.PNG', 10)).toBeCloseTo(scanCost - estimateCost('scanned.pdf', scanned.byteLength), 9);
    expect(estimateCost('big.docx', 4e6)).toBeCloseTo(2, 5);
  });

  it('orders longest first and keeps the given order between equal estimates', () => {
    const items = ['a', 'b', 'c', 'd', 'e'];
    const cost: Record<string, number> = { a: 1, b: 5, c: 1, d: 3, e: 5 };
    expect(longestFirst(items, (x) => cost[x] as number)).toEqual(['b', 'e', 'd', 'a', 'c']);
    expect(items).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('folder start order', () => {
  function folder(): string {
    const dir = tempDir('docmill-order-');
    for (const f of ['basic.pdf', 'scanned.pdf', 'tables.pdf', 'running.pdf']) {
      copyFileSync(join(fixtures, 'pdf', f), join(dir, f));
    }
    writeFileSync(join(dir, 'notes.csv'), 'a,b\n1,2\n');
    return dir;
  }
  const sorted = (dir: string) =>
    readdirSync(dir)
      .sort((a, b) => a.localeCompare(b))
      .map((f) => join(dir, f));

  it('keeps the folder order with one file in flight and puts likely OCR work first with more', async () => {
    const dir = folder();
    const files = sorted(dir);
    expect(await startOrder(files, 1)).toEqual(files);
    const two = (await startOrder(files, 2)).map((f) => f.slice(dir.length + 1));
    // The scan first, then by size: tables.pdf 2102 bytes, running.pdf 1901, basic.pdf 1172, notes.csv.
    expect(two).toEqual(['scanned.pdf', 'tables.pdf', 'running.pdf', 'basic.pdf', 'notes.csv']);
  });

  it('ranks by size alone when the PDFs exceed the read budget', async () => {
    const dir = folder();
    // A text-only PDF body larger than the scan: first by size, after the scan once its bytes are read.
    writeFileSync(join(dir, 'big.pdf'), `%PDF-1.4\n${'BT (text) Tj ET\n'.repeat(4000)}`);
    const files = sorted(dir);
    const names = async (budget: number) =>
      (await startOrder(files, 2, budget)).map((f) => f.slice(dir.length + 1)).slice(0, 2);
    expect(await names(1 << 20)).toEqual(['scanned.pdf', 'big.pdf']);
    expect(await names(1000)).toEqual(['big.pdf', 'scanned.pdf']);
  });

  it('starts files in that order and writes the same bytes as a one-at-a-time run', async () => {
    const dir = folder();
    const engine = createEngine();
    const started: string[] = [];
    const recording: Pick<Engine, 'parse'> = {
      parse: (input, options, hints) => {
        started.push(String(hints?.filename));
        return engine.parse(input, options, hints);
      },
    };
    // Files are taken in order; with two in flight their reads may finish the other way round, so
    // the order in which they are taken (onFile's start events) is what is compared.
    const taken: string[] = [];
    const job = (out: string, concurrency: number) => ({
      src: dir,
      out,
      options: {},
      formats: ['markdown' as const],
      json: false,
      stderr: { write: () => undefined },
      concurrency,
      onFile: (e: { file: string; done: boolean }) => {
        if (!e.done) taken.push(e.file);
      },
    });
    const one = tempDir('docmill-order-out1-');
    const two = tempDir('docmill-order-out2-');
    const s1 = await convertFolder(recording, job(one, 1));
    const order1 = started.splice(0);
    taken.splice(0);
    const s2 = await convertFolder(recording, job(two, 2));
    await engine.close();
    expect(order1).toEqual(sorted(dir).map((f) => f.slice(dir.length + 1)));
    expect(taken).toEqual(['scanned.pdf', 'tables.pdf', 'running.pdf', 'basic.pdf', 'notes.csv']);
    expect([...started].sort()).toEqual([...taken].sort());
    expect({ ...s2, seconds: 0 }).toEqual({ ...s1, seconds: 0 });
    const outputs = readdirSync(one).sort();
    expect(outputs).toContain('tables.pdf.md');
    expect(readdirSync(two).sort()).toEqual(outputs);
    for (const f of outputs) expect(readFileSync(join(two, f), 'utf8')).toBe(readFileSync(join(one, f), 'utf8'));
    expect(readFileSync(join(one, 'tables.pdf.md'), 'utf8')).toMatch(/\|/);
  });
});
