import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Adapter } from '../src/index.ts';
import { ACCEPTED_EXTENSIONS, createEngine, DocmillError, detect, render } from '../src/index.ts';
import { link, paragraph, root, section, text } from '../src/tree/build.ts';
import { errorOf } from './helpers/errors.ts';

const enc = (s: string) => new TextEncoder().encode(s);

const echo: Adapter = {
  name: 'echo',
  kinds: ['csv'],
  async parse(bytes) {
    return { tree: root([paragraph(new TextDecoder().decode(bytes))], { title: 'Echo' }) };
  },
};

describe('type detection: magic bytes, then extension, then content type', () => {
  it('recognises signatures whatever the label says', () => {
    expect(detect(enc('%PDF-1.7\n'), { filename: 'report.docx' }).kind).toBe('pdf');
    expect(detect(enc('{\\rtf1\\ansi hello}'), { filename: 'x.txt' }).kind).toBe('rtf');
    expect(detect(enc('<!DOCTYPE html><html><body>x</body></html>'), { filename: 'page.csv' }).kind).toBe('html');
  });
  it('goes by extension for text formats, then by content type', () => {
    expect(detect(enc('a,b\n1,2\n'), { filename: 'data.csv' }).kind).toBe('csv');
    expect(detect(enc('a;b\n1;2\n'), { contentType: 'text/csv; charset=utf-8' }).kind).toBe('csv');
    expect(detect(enc('<p>hi</p>'), { filename: 'frag.htm' }).kind).toBe('html');
  });
  it('refuses an unsupported type, listing the 20 accepted extensions', () => {
    let err: unknown;
    try {
      detect(enc('hello'), { filename: 'notes.txt' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DocmillError);
    const e = err as DocmillError;
    expect([e.status, e.code]).toEqual([400, 'UNSUPPORTED_FILE_TYPE']);
    expect(ACCEPTED_EXTENSIONS).toHaveLength(20);
    for (const ext of ACCEPTED_EXTENSIONS) expect(e.message).toContain(ext);
  });
  it('accepts raster images only through the image parser', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    expect(() => detect(png, { filename: 'a.png' })).toThrow(DocmillError);
    expect(detect(png, { filename: 'a.png', acceptImages: true })).toMatchObject({
      kind: 'image',
      imageMime: 'image/png',
    });
  });
  it('says a file named as a document is not one, and what it looks like, when its bytes are a known other type', async () => {
    // The head of a real ELF program: this Node binary on Linux, a hand-made header elsewhere.
    const elf =
      process.platform === 'linux'
        ? readFileSync(process.execPath).subarray(0, 4096)
        : new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(60).fill(0)]);
    const err = await errorOf(createEngine().parse(elf, {}, { filename: 'report.pdf' }));
    expect([err.status, err.code]).toEqual([400, 'UNSUPPORTED_FILE_TYPE']);
    expect(err.message).toMatch(/^This \.pdf file is not a PDF: it looks like an ELF executable or shared library/);
    const refused = (bytes: Uint8Array, filename?: string) => {
      try {
        detect(bytes, filename ? { filename } : {});
      } catch (e) {
        return (e as DocmillError).message;
      }
      return 'accepted';
    };
    const gzip = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0, 0]);
    expect(refused(gzip, 'sheet.xlsx')).toMatch(
      /^This \.xlsx file is not an Excel workbook: it looks like gzip-compressed data\./,
    );
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    expect(refused(png, 'scan.pdf')).toMatch(
      /^This \.pdf file is not a PDF: it looks like a PNG image \(images are read only with the image parser\)/,
    );
    // A zip of no document format (here: an empty archive's end record).
    const zip = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
    expect(refused(zip, 'deck.pdf')).toMatch(/^This \.pdf file is not a PDF: it looks like a zip archive/);
    // Without a document name: the usual refusal, saying what it looks like.
    expect(refused(elf)).toMatch(
      /^Unsupported upload type \(it looks like an ELF executable .*\)\. Supported file extensions: \.html/,
    );
    // Short signatures count in binary files only: a CSV may start with "MZ" or "ID3".
    expect(refused(enc('MZ,ID3\n1,2\n'), 'codes.csv')).toBe('accepted');
    // A damaged PDF is still the PDF reader's to judge.
    expect(refused(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0, 1, 2]), 'cut.pdf')).toBe('accepted');
  });
  it('reports encrypted OOXML (a CFB with EncryptionInfo) as password-protected', () => {
    const cfb = new Uint8Array(1024);
    cfb.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const name = 'EncryptionInfo';
    for (let i = 0; i < name.length; i++) cfb[600 + i * 2] = name.charCodeAt(i);
    expect(() => detect(cfb, { filename: 'secret.docx' })).toThrow(/password-protected/);
  });
});

describe('engine errors carry the contract status and code', () => {
  const engine = createEngine({ adapters: { csv: echo } });
  it('0 bytes → 400 BAD_REQUEST', async () => {
    const e = await errorOf(engine.parse(new Uint8Array(0), {}, { filename: 'a.csv' }));
    expect([e.status, e.code]).toEqual([400, 'BAD_REQUEST']);
    expect(e.message).toMatch(/empty/);
  });
  it('over 50 MB → 400 "exceeds maximum size of 50MB"', async () => {
    const big = new Uint8Array(50 * 1024 * 1024 + 1);
    const e = await errorOf(engine.parse(big, {}, { filename: 'a.csv' }));
    expect([e.status, e.code]).toEqual([400, 'BAD_REQUEST']);
    expect(e.message).toContain('exceeds maximum size of 50MB');
  });
  it('a stream over the limit is refused without buffering the rest', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(1024 * 1024));
        if (pulled > 200) c.close();
      },
    });
    const e = await errorOf(engine.parse(stream, {}, { filename: 'a.csv' }));
    expect(e.message).toContain('50MB');
    expect(pulled).toBeLessThan(60);
  });
  it('invalid options → 400 BAD_REQUEST before reading the file', async () => {
    const e = await errorOf(engine.parse(enc('a'), { timeout: 5 }, { filename: 'a.csv' }));
    expect([e.status, e.code]).toEqual([400, 'BAD_REQUEST']);
  });
  it('unsupported options → 400 PARSE_UNSUPPORTED_OPTIONS', async () => {
    const e = await errorOf(engine.parse(enc('a'), { actions: [] } as never, { filename: 'a.csv' }));
    expect([e.status, e.code]).toEqual([400, 'PARSE_UNSUPPORTED_OPTIONS']);
  });
  it('a raster image through the image parser → 400 naming OCR, not an empty success', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    const e = await errorOf(engine.parse(png, { parsers: ['image'] }, { filename: 'scan.png' }));
    expect([e.status, e.code]).toEqual([400, 'PARSE_UNSUPPORTED_OPTIONS']);
    expect(e.message).toMatch(/OCR/);
  });
  it('redactPII without a redaction stage fails closed: 400, no text', async () => {
    const e = await errorOf(engine.parse(enc('jane@example.com'), { redactPII: true }, { filename: 'a.csv' }));
    expect([e.status, e.code]).toEqual([400, 'PARSE_UNSUPPORTED_OPTIONS']);
    expect(e.message).not.toContain('jane');
    const masking = createEngine({
      stages: [
        {
          name: 'mask-all',
          redacts: true,
          applies: (ctx) => ctx.options.redactPII !== null,
          run: async (tree) => ({ ...tree, children: [paragraph('REDACTED')] }),
        },
      ],
    });
    const data = await masking.parse(enc('jane@example.com'), { redactPII: true }, { filename: 'a.csv' });
    expect(data.markdown).toBe('REDACTED\n');
  });
  it('warns when scanned pages need an OCR stage the engine does not have', async () => {
    const scanned: Adapter = {
      name: 'scanned',
      kinds: ['csv'],
      async parse() {
        return {
          tree: root([paragraph('cover')]),
          pageInfo: { 1: { text: 'text', imageCoverage: 0 }, 2: { text: 'none', imageCoverage: 0.95 } },
        };
      },
    };
    const data = await createEngine({ adapters: { csv: scanned } }).parse(enc('x'), {}, { filename: 'a.csv' });
    expect(data.warning).toMatch(/Page\(s\) 2 look scanned .* no OCR stage/);
  });
  it('unsupported type → 400 UNSUPPORTED_FILE_TYPE', async () => {
    const e = await errorOf(engine.parse(enc('plain'), {}, { filename: 'a.txt' }));
    expect([e.status, e.code]).toEqual([400, 'UNSUPPORTED_FILE_TYPE']);
  });
  it('timeout → 408 SCRAPE_TIMEOUT within the deadline, and the adapter sees the abort', async () => {
    let sawAbort = false;
    const slow: Adapter = {
      name: 'slow',
      kinds: ['csv'],
      parse: (_b, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(ctx.signal.reason);
          });
        }),
    };
    const t0 = Date.now();
    const e = await errorOf(
      createEngine({ adapters: { csv: slow } }).parse(enc('a'), { timeout: 1000 }, { filename: 'a.csv' }),
    );
    expect([e.status, e.code]).toEqual([408, 'SCRAPE_TIMEOUT']);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(sawAbort).toBe(true);
  });
  it('a caller abort stops the parse too', async () => {
    const never: Adapter = { name: 'never', kinds: ['csv'], parse: () => new Promise(() => undefined) };
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const e = await errorOf(
      createEngine({ adapters: { csv: never } }).parse(enc('a'), {}, { filename: 'a.csv', signal: ac.signal }),
    );
    expect(e.status).toBe(408);
  });
  it('anything unexpected → 500 UNKNOWN_ERROR, and the engine keeps serving', async () => {
    let calls = 0;
    const flaky: Adapter = {
      name: 'flaky',
      kinds: ['csv'],
      async parse(bytes) {
        calls++;
        if (calls === 1) throw new TypeError('boom');
        return { tree: root([paragraph(new TextDecoder().decode(bytes))]) };
      },
    };
    const eng = createEngine({ adapters: { csv: flaky } });
    const e = await errorOf(eng.parse(enc('a'), {}, { filename: 'a.csv' }));
    expect([e.status, e.code]).toEqual([500, 'UNKNOWN_ERROR']);
    expect(e.message).toMatch(/^An unexpected error occurred\./);
    expect((await eng.parse(enc('fine'), {}, { filename: 'a.csv' })).markdown).toBe('fine\n');
  });
});

describe('output guard: output far beyond what the input can hold', () => {
  // A misread length field or a merge spanning a whole row turns a few bytes into megabytes.
  const runaway: Adapter = {
    name: 'runaway',
    kinds: ['csv'],
    async parse() {
      const blocks = Array.from({ length: 50 }, (_, i) => paragraph(`p${i} ${'x'.repeat(100_000)}`));
      return { tree: root([section('sheet', 1, blocks, { name: 'S' })]) };
    },
  };

  it('cuts the tree in document order at the documented budget and says so', async () => {
    const engine = createEngine({ adapters: { csv: runaway } });
    const data = await engine.parse(enc('tiny'), {}, { filename: 'a.csv' });
    const md = data.markdown ?? '';
    // Budget: max(64 × 4 bytes, 2,000,000 characters) → 19 whole paragraphs of 100,004 characters.
    expect(md.length).toBeGreaterThan(1_800_000);
    expect(md.length).toBeLessThanOrEqual(2_000_000);
    expect(md.startsWith('p0 x')).toBe(true);
    expect(md).toContain('p18 x');
    expect(md).not.toContain('p19 x');
    expect(data.warning).toMatch(/passed 64 characters per input byte/);
  });

  it('leaves output within the budget alone, with a limit the host can set', async () => {
    const engine = createEngine({ adapters: { csv: runaway }, limits: { minOutputChars: 6_000_000 } });
    const data = await engine.parse(enc('tiny'), {}, { filename: 'a.csv' });
    expect(data.markdown).toContain('p49 x');
    expect(data.warning).toBeNull();
  });
});

describe('result object (2.7)', () => {
  const engine = createEngine({ adapters: { csv: echo } });
  it('returns only the requested formats plus metadata and warning', async () => {
    const data = await engine.parse(enc('see [docs]'), { formats: ['markdown', 'html'] }, { filename: 'a.csv' });
    expect(data.markdown).toBe('see \\[docs]\n');
    expect(data.html).toBe('<p>see [docs]</p>');
    expect(data).not.toHaveProperty('links');
    expect(data.metadata).toMatchObject({ title: 'Echo', contentType: 'text/csv', error: null });
    expect(data.warning).toBeNull();
  });
  it('takes Blob, ArrayBuffer and ReadableStream inputs alike', async () => {
    const bytes = enc('same');
    const viaBlob = await engine.parse(new Blob([bytes]), {}, { filename: 'a.csv' });
    const viaBuffer = await engine.parse(bytes.slice().buffer, {}, { filename: 'a.csv' });
    const viaStream = await engine.parse(new Blob([bytes]).stream(), {}, { filename: 'a.csv' });
    expect(viaBlob.markdown).toBe('same\n');
    expect(viaBuffer.markdown).toBe('same\n');
    expect(viaStream.markdown).toBe('same\n');
  });
  it('hands adapters a plain Uint8Array when given a Node Buffer (pdf.js refuses Buffer)', async () => {
    let seen: string | undefined;
    const spy: Adapter = {
      name: 'spy',
      kinds: ['csv'],
      async parse(bytes) {
        seen = bytes.constructor.name;
        return { tree: root([paragraph(new TextDecoder().decode(bytes))]) };
      },
    };
    const data = await createEngine({ adapters: { csv: spy } }).parse(
      Buffer.from('from a buffer'),
      {},
      { filename: 'a.csv' },
    );
    expect(seen).toBe('Uint8Array');
    expect(data.markdown).toBe('from a buffer\n');
  });
  it('derives pages and blocks from page sections for PDFs', async () => {
    const fakePdf: Adapter = {
      name: 'fake-pdf',
      kinds: ['pdf'],
      async parse() {
        const p1 = paragraph('first page');
        p1.source = { page: 1, bbox: [10, 20, 200, 40] };
        return {
          tree: root([
            section('page', 1, [p1], { width: 612, height: 792 }),
            section('page', 2, [paragraph('second page')]),
          ]),
        };
      },
    };
    const eng = createEngine({ adapters: { pdf: fakePdf } });
    const data = await eng.parse(enc('%PDF-1.4'), {
      parsers: [{ type: 'pdf', pages: true, blocks: true, pageMarkers: true }],
    });
    expect(data.markdown).toBe('first page\n\n---\n\n<!-- page 2 -->\n\nsecond page\n');
    expect(data.pages).toEqual([
      { pageNumber: 1, markdown: 'first page\n' },
      { pageNumber: 2, markdown: 'second page\n' },
    ]);
    const item = data.blocks?.[0]?.items[0];
    expect(item).toMatchObject({ type: 'paragraph', bbox: [10, 20, 200, 40], readingOrder: 0, content: 'first page' });
    const [s, e] = item?.markdownSpan ?? [0, 0];
    expect(data.markdown?.slice(s, e)).toBe('first page');
    expect(data.blocks?.[0]).toMatchObject({ pageNumber: 1, width: 612, height: 792, status: 'ok' });
  });
});

describe('render()', () => {
  it('gives a string for markdown and html and a list for links and images, typed so', () => {
    const tree = root([paragraph([text('See '), link('https://example.com/a', [text('the page')])])]);
    // Annotated on purpose: `tsc` refuses these lines if render() is typed `string | string[]`.
    const markdown: string = render(tree, 'markdown');
    const html: string = render(tree, 'html');
    const links: string[] = render(tree, 'links');
    const images: string[] = render(tree, 'images');
    expect(markdown).toBe('See [the page](https://example.com/a)\n');
    expect(html).toBe('<p>See <a href="https://example.com/a">the page</a></p>');
    expect(links).toEqual(['https://example.com/a']);
    expect(images).toEqual([]);
  });
});
