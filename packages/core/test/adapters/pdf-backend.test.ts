import { describe, expect, it } from 'vitest';
import { pdfBackends as backends, openPdf } from '../../src/adapters/pdf/backend/index.ts';
import type { PdfSource } from '../../src/adapters/pdf/backend/types.ts';
import { createEngine } from '../../src/engine.ts';
import { DocmillError } from '../../src/errors.ts';
import { fixture } from '../helpers/corpus.ts';
import { expectSurvivesDamage } from '../helpers/damage.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';

const rejection = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

/** Share of pixels that are not white in a box of an RGBA image. */
function ink(img: { width: number; data: Uint8ClampedArray }, x0: number, y0: number, x1: number, y1: number): number {
  let dark = 0;
  let all = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * img.width + x) * 4;
      all++;
      if ((img.data[i] as number) < 128 && (img.data[i + 3] as number) > 128) dark++;
    }
  return dark / all;
}

/** The seam's contract, checked the same way on every backend. */
describe.each(pdfBackends)('PDF backend conformance (%s)', (name) => {
  const backend = backends[name];
  const withSource = async <T>(file: string, fn: (src: PdfSource) => Promise<T>): Promise<T> => {
    const src = await backend.open(fixture('pdf', file));
    try {
      return await fn(src);
    } finally {
      await src.close();
    }
  };

  it('reads page count, metadata and text runs with boxes in top-left page space', async () => {
    await withSource('basic.pdf', async (src) => {
      expect(src.backend).toBe(name);
      expect(src.pageCount).toBe(1);
      expect((await src.metadata()).title).toBe('Basic Fixture');
      expect(await src.outline()).toEqual([]);
      const page = await src.page(1);
      await page.graphics();
      expect([page.width, page.height]).toEqual([612, 792]);
      const text = page.items.map((it) => it.str).join('|');
      expect(text).toContain('Docmill Fixture');
      expect(text).toContain('Closing words.');
      const heading = page.items.find((it) => it.str.startsWith('Docmill'));
      // Drawn at y = 740 (bottom-left origin) in 20 pt Helvetica-Bold: baseline 52 from the top.
      expect(heading?.size).toBeCloseTo(20, 1);
      expect((heading?.y ?? 0) + (heading?.h ?? 0)).toBeCloseTo(52, 0);
      expect(heading?.x).toBeCloseTo(72, 0);
      expect(heading?.bold).toBe(true);
      expect(page.items.find((it) => it.str.startsWith('Closing'))?.bold).toBe(false);
      for (const it of page.items) {
        expect(it.x).toBeGreaterThanOrEqual(0);
        expect(it.y).toBeGreaterThanOrEqual(0);
        expect(it.x + it.w).toBeLessThanOrEqual(612);
        expect(it.y + it.h).toBeLessThanOrEqual(792);
        expect(it.w).toBeGreaterThan(0);
      }
      page.close();
    });
  });

  it('keeps the hyphen that ends a line as a hyphen', async () => {
    await withSource('basic.pdf', async (src) => {
      const page = await src.page(1);
      const line = page.items.find((it) => it.str.includes('keeps run'));
      expect(line?.str.trimEnd().endsWith('run-')).toBe(true);
      page.close();
    });
  });

  it('gives rulings of a stroked grid inside the page', async () => {
    await withSource('tables.pdf', async (src) => {
      const page = await src.page(1);
      const g = await page.graphics();
      const horizontal = g.segments.filter((s) => s.y0 === s.y1);
      const vertical = g.segments.filter((s) => s.x0 === s.x1);
      expect(horizontal.length).toBeGreaterThanOrEqual(4);
      expect(vertical.length).toBeGreaterThanOrEqual(3);
      for (const s of g.segments) {
        expect(s.x0).toBeGreaterThanOrEqual(72 - 1);
        expect(s.x1).toBeLessThanOrEqual(392 + 1);
        expect(s.y0).toBeGreaterThan(60);
        expect(s.y1).toBeLessThan(200);
      }
      expect(g.images).toEqual([]);
      expect(g.imageCoverage).toBe(0);
      page.close();
    });
  });

  it('renders a page to RGBA at the asked resolution, text dark on white', async () => {
    await withSource('basic.pdf', async (src) => {
      const img = await src.render(1, 144);
      expect([img.width, img.height]).toEqual([1224, 1584]);
      expect(img.data.length).toBe(1224 * 1584 * 4);
      // The heading's box (72–230 pt across, 32–52 pt down) has ink; the bottom margin has none.
      expect(ink(img, 144, 64, 460, 104)).toBeGreaterThan(0.05);
      expect(ink(img, 0, 1400, 1224, 1584)).toBe(0);
    });
  });

  it('reads an empty page as no runs, no shapes and a white render', async () => {
    await withSource('blank.pdf', async (src) => {
      expect(src.pageCount).toBe(1);
      const page = await src.page(1);
      expect(page.items).toEqual([]);
      const g = await page.graphics();
      expect(g.segments.length + g.rects.length + g.images.length).toBe(0);
      page.close();
      const img = await src.render(1, 36);
      expect(ink(img, 0, 0, img.width, img.height)).toBe(0);
    });
  });

  it('refuses an encrypted file without its password and opens it with it', async () => {
    const bytes = fixture('pdf', 'encrypted.pdf');
    const err = await rejection(backend.open(bytes));
    expect(err).toBeInstanceOf(DocmillError);
    expect((err as DocmillError).status).toBe(400);
    expect((err as DocmillError).message).toContain('password-protected');
    const src = await backend.open(bytes, { password: 'docmill' });
    const page = await src.page(1);
    expect(page.items.map((it) => it.str).join(' ')).toContain('Locked Fixture');
    page.close();
    await src.close();
  });

  it('refuses damaged and non-PDF bytes with a 400 and leaves the caller’s bytes intact', async () => {
    const bytes = fixture('pdf', 'basic.pdf');
    const before = bytes.slice();
    for (const b of [bytes.slice(0, 40), new TextEncoder().encode('%PDF-1.4\nnot a pdf\n%%EOF'), new Uint8Array(0)]) {
      const err = await rejection(backend.open(b));
      expect(err).toBeInstanceOf(DocmillError);
      expect((err as DocmillError).status).toBe(400);
      expect((err as DocmillError).message).toMatch(/PDF/);
    }
    const src = await backend.open(bytes);
    await src.close();
    expect(bytes).toEqual(before);
  });

  it('rejects pages out of range and calls after close', async () => {
    const src = await backend.open(fixture('pdf', 'running.pdf'));
    expect(src.pageCount).toBe(3);
    await expect(src.page(4)).rejects.toThrow();
    await expect(src.page(0)).rejects.toThrow();
    await src.close();
    await src.close();
    await expect(src.page(1)).rejects.toThrow();
  });

  it('survives 200 damaged variants of each one-page PDF fixture', async () => {
    const { parse } = engineFor(name);
    for (const file of ['basic.pdf', 'tables.pdf', 'encrypted.pdf', 'blank.pdf'])
      await expectSurvivesDamage(fixture('pdf', file), file, 200, parse);
  });
});

/** The default engine (PDFium, pdf.js when PDFium cannot open a file) on every fixture. */
describe('PDF damage through the default engine', () => {
  it('survives 200 damaged variants of every PDF fixture', async () => {
    for (const file of ['basic.pdf', 'running.pdf', 'tables.pdf', 'continued.pdf', 'encrypted.pdf', 'blank.pdf'])
      await expectSurvivesDamage(fixture('pdf', file), file, 200);
  });
});

/**
 * pdf.js's page-tree walk prefetches every kid of the root /Pages and caches the promises; once the
 * wanted page is found (or an earlier kid fails) nobody awaits the rest, so a damaged kid rejected
 * unhandled inside getDocument, before the backend holds any handle (4 of these 400 copies:
 * XRefEntryException, ParserEOFException, FormatError twice). patches/pdfjs-dist@5.6.205.patch marks
 * the prefetch handled; the cached promise still rejects for a later walk that reaches that kid.
 */
describe('pdf.js backend on damaged multi-page PDFs', () => {
  it('leaves no unhandled rejection over 200 damaged variants of each', async () => {
    const { parse } = engineFor('pdfjs');
    const unhandled: string[] = [];
    const listener = (reason: unknown) => {
      unhandled.push(`${(reason as Error)?.name} ${(reason as Error)?.message}`);
    };
    process.on('unhandledRejection', listener);
    try {
      for (const file of ['running.pdf', 'continued.pdf']) {
        await expectSurvivesDamage(fixture('pdf', file), file, 200, parse);
      }
      // Rejections are reported after the microtask queue drains: give the last one a turn.
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      process.off('unhandledRejection', listener);
    }
    expect(unhandled).toEqual([]);
  });
});

describe('PDF backend choice', () => {
  // Cut inside the trailer: no startxref. PDFium gives up; pdf.js rebuilds the cross-references.
  const cut = fixture('pdf', 'basic.pdf').slice(0, 1140);

  it('hands a file PDFium cannot open to pdf.js', async () => {
    const err = await rejection(backends.pdfium.open(cut));
    expect((err as DocmillError).status).toBe(400);
    const src = await openPdf(cut);
    expect(src.backend).toBe('pdfjs');
    await src.close();
    const r = await engineFor('pdfium').parse(cut, {}, { filename: 'cut.pdf' });
    expect(r.markdown).toContain('# Docmill Fixture');
  });

  it('opens with PDFium by default and with pdf.js when the engine asks', async () => {
    const bytes = fixture('pdf', 'basic.pdf');
    const a = await openPdf(bytes);
    const b = await openPdf(bytes, { backend: 'pdfjs' });
    expect([a.backend, b.backend]).toEqual(['pdfium', 'pdfjs']);
    await a.close();
    await b.close();
  });

  it('parses an encrypted PDF with hints.password, and refuses it without', async () => {
    const bytes = fixture('pdf', 'encrypted.pdf');
    for (const backend of ['pdfium', 'pdfjs'] as const) {
      const engine = createEngine({ pdf: { backend } });
      const data = await engine.parse(bytes, {}, { filename: 'locked.pdf', password: 'docmill' });
      expect(data.markdown).toContain('Locked Fixture');
      const err = await rejection(engine.parse(bytes, {}, { filename: 'locked.pdf' }));
      expect([(err as DocmillError).status, (err as DocmillError).message]).toEqual([
        400,
        expect.stringContaining('password-protected'),
      ]);
    }
  });

  it('does not retry an encrypted file with pdf.js', async () => {
    const err = await rejection(openPdf(fixture('pdf', 'encrypted.pdf')));
    expect((err as DocmillError).message).toContain('password-protected');
  });
});
