import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { constants, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createEngine, DocmillError } from '../../src/index.ts';
import { pdfOf } from '../helpers/pdf-build.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/**
 * A zlib stream of `mb` MB of zeros, ≈ 1 KB per MB: one flushed block repeated (a full flush ends
 * each at a byte boundary with no back-reference across), a final empty block, the Adler-32 of
 * zeros (s1 = 1, s2 = length mod 65521).
 */
function zeroBomb(mb: number): Uint8Array {
  const block = deflateRawSync(Buffer.alloc(1 << 20), { finishFlush: constants.Z_FULL_FLUSH });
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((((mb * 2 ** 20) % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0x9c]), ...Array<Buffer>(mb).fill(block), Buffer.from([0x03, 0x00]), adler]);
}

const bombPdf = (mb: number) => {
  const data = zeroBomb(mb);
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    [`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`, data, '\nendstream'],
  ]);
};

const external = async () => {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  return process.memoryUsage().external;
};

describe('PDFium memory per page', () => {
  it('a content stream inflating to 1 GB fails the document fast with a 400, and its memory is given back', {
    timeout: 180_000,
  }, async () => {
    const engine = createEngine();
    const basic = new Uint8Array(readFileSync(new URL('../../../../fixtures/pdf/basic.pdf', import.meta.url)));
    try {
      await engine.parse(basic, {}, { filename: 'basic.pdf' });
      const before = await external();
      const bomb = bombPdf(1024);
      expect(bomb.length).toBeLessThan(1_200_000);
      const err = await engine.parse(bomb, {}, { filename: 'bomb.pdf' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DocmillError);
      expect([(err as DocmillError).status, (err as DocmillError).code]).toEqual([400, 'BAD_REQUEST']);
      expect((err as DocmillError).message).toBe(
        'The PDF needs more than 256 MB of memory to read one page (a compressed stream that inflates without bound?): refused.',
      );
      // The instance that took the memory is dropped; the next document gets a fresh one.
      expect(await external()).toBeLessThan(before + 64 * 2 ** 20);
      const again = await engine.parse(basic, {}, { filename: 'basic.pdf' });
      expect(again.markdown).toContain('# Docmill Fixture');
      expect(await external()).toBeLessThan(before + 64 * 2 ** 20);
    } finally {
      await engine.close();
    }
  });
});
