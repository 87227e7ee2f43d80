import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { DocmillError } from '../../src/errors.ts';
import { DEFAULT_LIMITS } from '../../src/limits.ts';
import { browserInflateRaw, InflateDataError, InflateLimitError, nodeInflateRaw } from '../../src/platform/inflate.ts';
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

/** A deflated zip whose central directory says `uncompressedSize` for every entry. */
function withDeclaredSize(zip: Uint8Array, uncompressedSize: number): Uint8Array {
  const out = new Uint8Array(zip);
  const view = new DataView(out.buffer);
  for (const e of listZipEntries(out) ?? []) {
    // Find the entry's central record by its local header offset.
    for (let p = 0; p + 46 <= out.length; p++)
      if (view.getUint32(p, true) === 0x02014b50 && view.getUint32(p + 42, true) === e.offset) {
        view.setUint32(p + 24, uncompressedSize, true);
        break;
      }
  }
  return out;
}

describe('reading entries', () => {
  it('stops inflating an entry at its declared size (plus slack), whatever the data holds', async () => {
    const honest = await deflated({ 'a.xml': `<a>${'x'.repeat(200_000)}</a>` });
    const lying = withDeclaredSize(honest, 100);
    const zip = await openZip(lying, DEFAULT_LIMITS);
    await expect(zip.text('a.xml')).rejects.toThrow(/inflates past its declared size/);
  });

  it('inflates a text part read twice once, charging the budget once; bytes are fresh each time', async () => {
    const part = 'y'.repeat(600_000);
    const bytes = await deflated({ 'big.xml': part, 'other.xml': '<o/>' });
    const zip = await openZip(bytes, { ...DEFAULT_LIMITS, maxUnzippedBytes: 1_000_000 });
    expect(await zip.text('big.xml')).toBe(part);
    expect(await zip.text('BIG.XML')).toBe(part);
    const other = (await zip.bytes('other.xml')) as Uint8Array;
    other.fill(0);
    expect(await zip.text('other.xml')).toBe('<o/>');
  });

  it('refuses damaged compressed data with a 400 naming the part', async () => {
    const bytes = await deflated({ 'a.xml': noise(2000), 'b.xml': '<b/>' });
    const entry = listZipEntries(bytes)?.find((e) => e.name === 'a.xml');
    const broken = new Uint8Array(bytes);
    const start = (entry?.offset ?? 0) + 30 + 'a.xml'.length;
    broken.fill(0xff, start, start + 16);
    const zip = await openZip(broken, DEFAULT_LIMITS);
    await expect(zip.bytes('a.xml')).rejects.toThrow(/Zip entry "a.xml" is damaged/);
    expect(await zip.text('b.xml')).toBe('<b/>');
  });

  it('refuses an archive with an encrypted entry or an unknown compression method', async () => {
    const bytes = await deflated({ 'a.xml': '<a/>' });
    const entry = listZipEntries(bytes)?.[0];
    for (const [at, value] of [
      [6, 1], // local flags: encrypted
      [8, 1], // local method: shrunk
    ]) {
      const central = bytes.length - 22 - 46 - 'a.xml'.length;
      const copy = new Uint8Array(bytes);
      new DataView(copy.buffer).setUint16(central + 2 + (at as number), value as number, true);
      expect(entry?.offset).toBe(0);
      await expect(openZip(copy, DEFAULT_LIMITS)).rejects.toThrow(/not a readable zip/);
    }
  });

  it('uses the directory detection read for the same bytes, and only for them', async () => {
    const bytes = await deflated({ 'a.xml': '<a/>', 'b.xml': '<b/>' });
    const entries = (listZipEntries(bytes) ?? []).filter((e) => e.name === 'b.xml');
    expect((await openZip(bytes, DEFAULT_LIMITS, undefined, undefined, { bytes, entries })).names).toEqual(['b.xml']);
    const other = { bytes: new Uint8Array(bytes), entries };
    expect((await openZip(bytes, DEFAULT_LIMITS, undefined, undefined, other)).names).toEqual(['a.xml', 'b.xml']);
  });
});

describe('raw inflation in Node (zlib) and in browsers (fflate)', () => {
  it('gives the same bytes, the same limit and the same refusals', async () => {
    const { deflateRawSync } = await import('node:zlib');
    const inflaters = [await nodeInflateRaw(), await browserInflateRaw()];
    const data = new Uint8Array(120_000);
    data.set(noise(30_000));
    data.set(noise(20_000), 100_000);
    const packed = new Uint8Array(deflateRawSync(data));
    const empty = new Uint8Array(deflateRawSync(new Uint8Array(0)));
    const broken = new Uint8Array(packed);
    broken.fill(0xff, 100, 120);
    for (const inflate of inflaters) {
      expect(inflate(packed, data.length)).toEqual(data);
      expect(inflate(empty, 10)).toEqual(new Uint8Array(0));
      expect(() => inflate(packed, data.length - 1)).toThrow(InflateLimitError);
      expect(() => inflate(packed.subarray(0, packed.length - 10), data.length)).toThrow(InflateDataError);
      expect(() => inflate(broken, data.length)).toThrow(InflateDataError);
    }
  });

  it('inflates cut and damaged data as far as it goes (upToCut), the same bytes on both, within the limit', async () => {
    const { deflateRawSync } = await import('node:zlib');
    const [node, browser] = [await nodeInflateRaw(), await browserInflateRaw()];
    const text = new TextEncoder().encode(
      Array.from(
        { length: 3000 },
        (_, i) => `<w:p><w:r><w:t>Line ${i} ${i % 7 ? 'of' : 'from'} the minutes.</w:t></w:r></w:p>`,
      ).join(''),
    );
    const data = new Uint8Array(text.length + 40_000);
    data.set(text);
    data.set(noise(40_000), text.length);
    const packed = new Uint8Array(deflateRawSync(data));
    expect(() => node(packed.subarray(0, 5000), data.length)).toThrow(InflateDataError);
    for (const cut of [1000, 5000, 20_000, Math.floor(packed.length / 2), packed.length - 3, packed.length]) {
      const fromNode = node(packed.subarray(0, cut), data.length, true);
      expect(browser(packed.subarray(0, cut), data.length, true), `cut at ${cut}`).toEqual(fromNode);
      // A prefix of the data, longer the more of the stream there is; all of it from the whole stream.
      expect(fromNode, `cut at ${cut}`).toEqual(data.subarray(0, fromNode.length));
      if (cut === packed.length) expect(fromNode.length).toBe(data.length);
    }
    expect(node(packed.subarray(0, 20_000), data.length, true).length).toBeGreaterThan(50_000);
    // Bad codes: what came before them, on both. (What the bad codes themselves give may differ:
    // fflate refuses fewer bad codes than zlib, as in every inflation.)
    const broken = new Uint8Array(packed);
    broken.fill(0xff, 5000, 5040);
    const clean = node(packed.subarray(0, 5000), data.length, true);
    expect(clean.length).toBeGreaterThan(10_000);
    for (const inflate of [node, browser]) {
      const before = inflate(broken, 4 * data.length, true);
      expect(before.subarray(0, clean.length)).toEqual(clean);
    }
    // Nothing at all, and past the limit, are still refusals.
    for (const inflate of [node, browser]) {
      expect(() => inflate(new Uint8Array([0xff, 0xff, 0xff]), 100, true)).toThrow(InflateDataError);
      expect(() => inflate(packed.subarray(0, 1), 100, true)).toThrow(InflateDataError);
      expect(() => inflate(packed.subarray(0, 20_000), 1000, true)).toThrow(InflateLimitError);
    }
  });
});
