import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/limits.ts';
import { listZipEntries, openZip, storedZip } from '../../src/util/zip.ts';

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
