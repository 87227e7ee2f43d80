import { crc32, deflateRawSync, gunzipSync, gzipSync, constants as zlib } from 'node:zlib';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { chunkSchema, createEngine, DocmillError, detect, parse, parseTree } from '../../src/index.ts';
import type { Section } from '../../src/tree/types.ts';
import { corpusFile, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';

const md = async (bytes: Uint8Array, filename: string) => (await parse(bytes, {}, { filename })).markdown ?? '';
const files = (children: readonly { type: string }[]) =>
  children.filter((b): b is Section => b.type === 'section' && (b as Section).kind === 'file');
const zipOf = async (entries: [string, string | Uint8Array][], compression: 'STORE' | 'DEFLATE' = 'DEFLATE') => {
  const zip = new JSZip();
  for (const [name, data] of entries) zip.file(name, data);
  return zip.generateAsync({ type: 'uint8array', compression });
};

/** Raw deflate data that inflates to `gigabytes` GiB of zeros, from 64 MiB blocks (≈ 64 KiB each). */
function zeroBomb(mib: number): Uint8Array {
  const block = deflateRawSync(Buffer.alloc(64 << 20), { finishFlush: zlib.Z_SYNC_FLUSH });
  const parts: Buffer[] = [];
  for (let i = 0; i < mib / 64; i++) parts.push(block);
  parts.push(Buffer.from([0x03, 0x00])); // final empty block
  return new Uint8Array(Buffer.concat(parts));
}

/** A one-entry deflated zip whose headers declare `declared` bytes inflated. */
function rawZip(name: string, deflated: Uint8Array, declared: number): Uint8Array {
  const n = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(deflated.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(n.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(deflated.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(n.length, 28);
  const cdOffset = 30 + n.length + deflated.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + n.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return new Uint8Array(Buffer.concat([local, n, deflated, central, n, end]));
}

describe('archive detection', () => {
  it('takes any zip that is no office or e-book container, tar and gzip, by their bytes', () => {
    expect(detect(fixture('archive', 'bundle.zip'), {}).kind).toBe('zip');
    expect(detect(fixture('archive', 'project.tar.gz'), { filename: 'x.bin' }).kind).toBe('tar');
    // Office containers stay what they are.
    expect(detect(fixture('docx', 'basic.docx'), { filename: 'basic.zip' }).kind).toBe('docx');
  });
});

describe('zip', () => {
  it('gives each member a section headed by its path, in archive order, nested zips inside', async () => {
    const { tree } = await parseTree(fixture('archive', 'bundle.zip'), {}, { filename: 'bundle.zip' });
    expect(files(tree.children).map((s) => s.name)).toEqual([
      'reports/basic.pdf',
      'data/prices.csv',
      'archive/inner.zip',
    ]);
    const data = await parse(fixture('archive', 'bundle.zip'), {}, { filename: 'bundle.zip' });
    const out = data.markdown ?? '';
    expect(out.startsWith('# reports/basic.pdf\n\n## Docmill Fixture\n\nThe quick brown fox')).toBe(true);
    expect(out).toContain('# data/prices.csv\n\n| item | price |\n| --- | --- |\n| pen | 1.20 |\n| ink | 4.50 |');
    expect(out).toContain(
      '# archive/inner.zip\n\n## notes/readme.md\n\n### Inner notes\n\n- first point\n- second point',
    );
    expect(out).toContain('## notes/todo.txt\n\nCall the supplier.  \nOrder paper.');
    expect(data.warning).toBe(
      '1 archive member(s) not read: images/logo.png (an image: read only with the image parser).',
    );
    expect(data.metadata.numPages).toBe(3);
  });
  it('gives blocks and chunks per member: ids, the members they lie in, the PDF member its pages', async () => {
    const data = await parse(
      fixture('archive', 'bundle.zip'),
      { formats: ['markdown', { type: 'chunks', maxTokens: 64 }], parsers: [{ type: 'pdf', blocks: true }] },
      { filename: 'bundle.zip' },
    );
    const groups = (data.blocks ?? []).map((g) => [g.kind, g.pageNumber, g.within, g.items.map((i) => i.id)]);
    expect(groups).toEqual([
      ['file', 1, ['reports/basic.pdf'], ['f1-b0']],
      ['page', 1, ['reports/basic.pdf'], ['f1-p1-b0', 'f1-p1-b1', 'f1-p1-b2', 'f1-p1-b3']],
      ['file', 2, ['data/prices.csv'], ['f2-b0', 'f2-b1']],
      ['file', 3, ['archive/inner.zip'], ['f3-b0']],
      ['file', 1, ['archive/inner.zip', 'notes/readme.md'], ['f3-f1-b0', 'f3-f1-b1', 'f3-f1-b2']],
      ['file', 2, ['archive/inner.zip', 'notes/todo.txt'], ['f3-f2-b0', 'f3-f2-b1']],
    ]);
    // Every block's content is its own text in the Markdown (nested sections included).
    for (const g of data.blocks ?? [])
      for (const i of g.items) expect(data.markdown?.slice(...(i.markdownSpan as [number, number]))).toBe(i.content);
    const chunks = data.chunks ?? [];
    expect(chunks.map((c) => [c.within, c.pages, c.blocks?.[0]])).toEqual([
      [['reports/basic.pdf'], [1], 'f1-b0'],
      [['data/prices.csv'], undefined, 'f2-b0'],
      [['archive/inner.zip'], undefined, 'f3-b0'],
      [['archive/inner.zip', 'notes/readme.md'], undefined, 'f3-f1-b0'],
      [['archive/inner.zip', 'notes/todo.txt'], undefined, 'f3-f2-b0'],
    ]);
    expect(chunks[0]?.text).toMatch(/^# reports\/basic\.pdf\n\n## Docmill Fixture\n\nThe quick brown fox/);
    expect(chunks[0]?.bbox?.[0]?.page).toBe(1);
    // The published chunk schema (strict) knows `within`.
    for (const c of chunks) expect(chunkSchema.safeParse(c).success).toBe(true);
  });
});

describe('tar and gzip', () => {
  it('reads a .tar.gz member by member', async () => {
    expect(await md(fixture('archive', 'project.tar.gz'), 'project.tar.gz')).toBe(
      '# project/README.md\n\n## Project Atlas\n\nA survey of **coastal** maps.\n\n# project/data.json\n\n| map | year |\n| --- | --- |\n| North | 1880 |\n| South | 1902 |\n',
    );
  });
  it('reads a member whose header has FEXTRA, FNAME, FCOMMENT and FHCRC fields, and members concatenated', async () => {
    const plain = gzipSync('item,price\npaper,2.00\n');
    // Same body and trailer, a header with every optional field (FLG 0x1e): XLEN 6 of extra data, a
    // zero-terminated name and comment, and the low 16 bits of the header's CRC-32.
    const fields = Buffer.concat([
      Buffer.from([0x1f, 0x8b, 8, 0x1e, 0, 0, 0, 0, 0, 3, 6, 0, 0x41, 0x42, 2, 0, 1, 2]),
      Buffer.from('prices.csv\0a comment\0'),
    ]);
    const hcrc = Buffer.alloc(2);
    hcrc.writeUInt16LE(crc32(fields) & 0xffff);
    const full = Buffer.concat([fields, hcrc, plain.subarray(10)]);
    const table = '# prices.csv\n\n| item | price |\n| --- | --- |\n| paper | 2.00 |\n';
    expect(await md(new Uint8Array(full), 'prices.csv.gz')).toBe(table);
    // `cat a.gz b.gz` is one gzip file of both (RFC 1952 §2.2), as gunzip reads it.
    const two = Buffer.concat([gzipSync('item,price\n'), gzipSync('paper,2.00\n')]);
    expect(await md(new Uint8Array(two), 'prices.csv.gz')).toBe(table);
  });
  it('a damaged or cut gzip header is a 400 that says the gzip data is damaged', async () => {
    const good = gzipSync('item,price\npaper,2.00\n');
    const variants: [string, Uint8Array][] = [
      ['reserved flag', Uint8Array.from(good, (b, i) => (i === 3 ? 0x20 : b))],
      ['header cut', good.subarray(0, 6)],
      ['FEXTRA longer than the file', Uint8Array.from(good, (b, i) => (i === 3 ? 0x04 : i === 11 ? 0xff : b))],
      [
        'FNAME never ends',
        new Uint8Array(Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0x08, 0, 0, 0, 0, 0, 3]), Buffer.alloc(40, 0x61)])),
      ],
    ];
    for (const [what, bytes] of variants) {
      const err = await parse(bytes, {}, { filename: 'prices.csv.gz' }).catch((e) => e);
      expect([what, err.status, err.code]).toEqual([what, 400, 'BAD_REQUEST']);
      expect(err.message, what).toMatch(/^The gzip data is damaged: /);
    }
  });
  it('a gzip body cut short gives what inflated before the cut; one that gives nothing is a 400', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => `row ${i},${(i * 7919) % 1000}`).join('\n');
    const gz = gzipSync(`name,value\n${rows}\n`);
    const cut = await parse(gz.subarray(0, Math.floor(gz.length / 2)), {}, { filename: 'rows.csv.gz' });
    expect(cut.markdown).toContain('| row 0 | 0 |');
    expect(cut.markdown).not.toContain('row 399');
    const err = await parse(gz.subarray(0, 11), {}, { filename: 'rows.csv.gz' }).catch((e) => e);
    expect([err.status, err.code]).toEqual([400, 'BAD_REQUEST']);
    expect(err.message).toMatch(/^The gzip data is damaged: /);
  });
  it('reads one gzipped document under its name without .gz', async () => {
    expect(await md(fixture('archive', 'prices.csv.gz'), 'prices.csv.gz')).toBe(
      '# prices.csv\n\n| item | price |\n| --- | --- |\n| paper | 2.00 |\n',
    );
  });
});

describe('hostile archives end in a 400 or a bounded result with a warning', () => {
  it('10,000 members: the first 1,000 read, the rest listed', async () => {
    // 10,000 entries is the zip limit itself (one more, or a folder entry, and the zip is refused).
    const entries: [string, string][] = Array.from({ length: 10_000 }, (_, i) => [`${i}.txt`, `member ${i}`]);
    const data = await parse(await zipOf(entries, 'STORE'), { timeout: 120_000 }, { filename: 'many.zip' });
    expect(data.metadata.numPages).toBe(1000);
    expect(data.markdown).toContain('member 999');
    expect(data.markdown).not.toContain('member 1000\n');
    expect(data.warning).toMatch(
      /^9000 archive member\(s\) not read: 1000\.txt \(the limit of 1000 embedded documents was reached\);/,
    );
    expect(data.warning).toMatch(/and 8950 more\.$/);
  }, 150_000);
  it('a zip in a zip 20 deep: read down to the nesting limit', async () => {
    let bytes = await zipOf([['deepest.txt', 'bottom of the well']]);
    for (let i = 19; i >= 1; i--) bytes = await zipOf([[`level${i}.zip`, bytes]]);
    const data = await parse(bytes, {}, { filename: 'deep.zip' });
    expect(data.markdown).toContain('# level1.zip');
    expect(data.markdown).toContain('level5.zip');
    expect(data.markdown).not.toContain('bottom of the well');
    expect(data.warning).toMatch(/nested more than 5 containers deep/);
  });
  it('a member declaring 1 GB is refused before inflating (400)', async () => {
    const bomb = rawZip('zeros.txt', zeroBomb(1024), 1 << 30);
    const err = await parse(bomb, {}, { filename: 'bomb.zip' }).catch((e) => e);
    expect(err).toBeInstanceOf(DocmillError);
    expect([err.status, err.code]).toEqual([400, 'BAD_REQUEST']);
  }, 60_000);
  it('a member inflating to 1 GB under a small declared size is cut at its size and skipped', async () => {
    const bomb = rawZip('zeros.txt', zeroBomb(1024), 1000);
    const data = await parse(bomb, {}, { filename: 'liar.zip' });
    expect(data.warning).toMatch(/zeros\.txt \(Zip entry "zeros\.txt" inflates past its declared size/);
  }, 60_000);
  it('a .tar.gz inflating to 1 GB is refused (400)', async () => {
    const deflated = zeroBomb(1024);
    const gz = new Uint8Array(
      Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), deflated, Buffer.alloc(8)]),
    );
    const err = await parse(gz, {}, { filename: 'bomb.tar.gz' }).catch((e) => e);
    expect([err.status, err.code]).toEqual([400, 'BAD_REQUEST']);
    expect(err.message).toMatch(/likely bomb/);
    const small = await createEngine({ limits: { maxUnzippedBytes: 1 << 20 } })
      .parse(gz, {}, { filename: 'bomb.tar.gz' })
      .catch((e) => e);
    expect([small.status, small.code]).toEqual([400, 'BAD_REQUEST']);
    expect(small.message).toBe('The gzip data inflates past 1048576 bytes: refusing a likely bomb.');
  }, 60_000);
  it('a small .gz expanding past maxCompressionRatio is refused (400)', async () => {
    // 64 MiB of zeros in about 64 KiB: over 200× once past the 4 MiB the ratio rule starts at.
    const gz = gzipSync(Buffer.alloc(64 << 20));
    const err = await parse(gz, {}, { filename: 'zeros.txt.gz' }).catch((e) => e);
    expect([err.status, err.code]).toEqual([400, 'BAD_REQUEST']);
    expect(err.message).toBe(
      'The gzip data expands more than 200× (limit maxCompressionRatio): refusing a likely bomb.',
    );
  });
  it('a .gz of more concatenated members than maxZipEntries is refused (400); that many read', async () => {
    const member = gzipSync('a,b\n');
    const many = (n: number) => new Uint8Array(Buffer.concat(Array.from({ length: n }, () => member)));
    const engine = createEngine({ limits: { maxZipEntries: 50 } });
    const err = await engine.parse(many(51), {}, { filename: 'many.csv.gz' }).catch((e) => e);
    expect([err.status, err.code]).toEqual([400, 'BAD_REQUEST']);
    expect(err.message).toBe('The gzip data has more than 50 members (limit maxZipEntries).');
    const data = await engine.parse(many(50), {}, { filename: 'many.csv.gz' });
    expect(data.markdown?.match(/\| a \| b \|/g)?.length).toBe(50);
  });
  it('a cut tar gives its whole entries with a warning; one with none is a clean 400', async () => {
    const tar = gunzipSync(fixture('archive', 'project.tar.gz'));
    const cut = await parse(gzipSync(tar.subarray(0, 700)), {}, { filename: 'cut.tgz' });
    expect(cut.markdown).toContain('# project/README.md');
    expect(cut.markdown).not.toContain('data.json');
    expect(cut.warning).toMatch(/cut short .* 1 complete/);
    const err = await parse(gzipSync(tar.subarray(0, 300)), {}, { filename: 'cut.tgz' }).catch((e) => e);
    expect([err.status, err.code]).toEqual([400, 'BAD_REQUEST']);
  });
  it('a zip of 10,001 entries is refused before reading (400)', async () => {
    const entries: [string, string][] = Array.from({ length: 10_001 }, (_, i) => [`${i}.txt`, 'x']);
    const err = await parse(await zipOf(entries, 'STORE'), {}, { filename: 'too-many.zip' }).catch((e) => e);
    expect([err.status, err.code]).toEqual([400, 'BAD_REQUEST']);
    expect(err.message).toMatch(/10001 entries; the limit is 10000/);
  });
});

describe.skipIf(!hasCorpus)('markitdown corpus: test_files.zip', () => {
  if (!hasCorpus) console.warn(corpusSkipReason);
  it('gives every member its text, the picture listed as skipped', async () => {
    const data = await parse(corpusFile('markitdown', 'test_files.zip'), {}, { filename: 'test_files.zip' });
    const out = data.markdown ?? '';
    for (const heading of [
      '# test.docx',
      '# test.pptx',
      '# test.xlsx',
      '# test_blog.html',
      '# test_serp.html',
      '# test_wikipedia.html',
    ])
      expect(out).toContain(`\n${heading}\n`.trimStart());
    expect(out).toContain('AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation');
    expect(out).toContain('09060124-b5e7-4717-9d07-3c046eb');
    expect(out).toContain('Does Model and Inference Parameter Matter in LLM Applications?');
    expect(out).toContain('Microsoft');
    expect(data.warning).toMatch(/test\.jpg \(an image/);
  });
});
