import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { DocmillError } from '../../src/errors.ts';
import { DEFAULT_LIMITS } from '../../src/limits.ts';
import { listZipEntries, openZip, RATIO_CHECK_FROM, storedZip } from '../../src/util/zip.ts';

describe('storedZip', () => {
  it('writes entries that the zip reader lists and returns byte for byte', async () => {
    const big = new Uint8Array(70_000).map((_, i) => (i * 31) % 251);
    const entries: [string, Uint8Array][] = [
      ['[Content_Types].xml', new TextEncoder().encode('<Types/>')],
      ['xl/worksheets/sheet1.xml', big],
      ['xl/empty.bin', new Uint8Array(0)],
      ['xl/ünïcode name.xml', new TextEncoder().encode('é')],
    ];
    const zip = storedZip(entries);
    expect(listZipEntries(zip)?.map((e) => [e.name, e.uncompressedSize])).toEqual(
      entries.map(([n, d]) => [n, d.length]),
    );
    const opened = await openZip(zip, DEFAULT_LIMITS);
    for (const [name, data] of entries) expect(await opened.bytes(name)).toEqual(data);
  });
});

const deflated = async (files: Record<string, string | Uint8Array>) => {
  const zip = new JSZip();
  for (const [name, data] of Object.entries(files)) zip.file(name, data);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 9 } });
};
/** Bytes that do not compress, so a cut lands where the test says. */
const noise = (n: number) => {
  let x = 12345;
  return new Uint8Array(n).map(() => {
    x = (x * 1103515245 + 12345) >>> 0;
    return x >>> 24;
  });
};
const isBomb = (e: unknown) => e instanceof DocmillError && e.status === 400 && /zip bomb/.test(e.message);

describe('zip-bomb rules', () => {
  it('checks the ratio only on entries read, and only above 4 MB inflated', async () => {
    const small = new Uint8Array(RATIO_CHECK_FROM); // zeros: ~1000×, but 4 MB at most
    const bytes = await deflated({ 'a.xml': '<a/>', 'small.emf': small, 'big.emf': new Uint8Array(24 << 20) });
    const zip = await openZip(bytes, DEFAULT_LIMITS); // the 24 MB entry is listed, not inflated
    expect(await zip.text('a.xml')).toBe('<a/>');
    expect((await zip.bytes('small.emf'))?.length).toBe(RATIO_CHECK_FROM);
    await expect(zip.bytes('big.emf')).rejects.toSatisfy(isBomb);
  });
});

describe('zip recovery (directory missing)', () => {
  it('lists and reads the complete entries of a zip cut short, and warns', async () => {
    const whole = await deflated({
      'one.xml': '<one/>',
      'two.xml': 'two'.repeat(100),
      'three.bin': noise(5000),
    });
    const cut = whole.subarray(0, whole.length - 5100); // inside three.bin's data, directory gone
    expect(listZipEntries(cut)).toBeNull();
    const warnings: string[] = [];
    const zip = await openZip(cut, DEFAULT_LIMITS, undefined, (m) => warnings.push(m));
    expect(zip.names).toEqual(['one.xml', 'two.xml']);
    expect(await zip.text('two.xml')).toBe('two'.repeat(100));
    expect(warnings).toEqual([expect.stringMatching(/2 complete part\(s\) were recovered/)]);
  });

  it('keeps the zip-bomb limits on the recovered archive', async () => {
    const whole = await deflated({
      'a.xml': '<a/>',
      'bomb.xml': new Uint8Array(24 << 20),
      'tail.bin': noise(4000),
    });
    const cut = whole.subarray(0, whole.length - 2000);
    const zip = await openZip(cut, DEFAULT_LIMITS);
    await expect(zip.bytes('bomb.xml')).rejects.toSatisfy(isBomb);
    await expect(openZip(cut, { ...DEFAULT_LIMITS, maxUnzippedBytes: 1 << 20 })).rejects.toThrow(/would inflate/);
    await expect(openZip(cut, { ...DEFAULT_LIMITS, maxZipEntries: 1 })).rejects.toThrow(/entries; the limit is 1/);
  });

  it('still refuses bytes with no complete entry', async () => {
    const whole = await deflated({ 'a.xml': 'x'.repeat(1000) });
    await expect(openZip(whole.subarray(0, 40), DEFAULT_LIMITS)).rejects.toThrow(/not a readable zip/);
  });
});
