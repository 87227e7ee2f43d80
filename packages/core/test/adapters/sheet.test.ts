import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { openCfb } from '../../src/adapters/cfb/index.ts';
import { createEngine, DocmillError, detect, parse, parseTree, timeoutError } from '../../src/index.ts';
import type { Section } from '../../src/tree/types.ts';
import { decryptOoxml } from '../../src/util/offcrypto.ts';
import { corpusFile, corpusPairs, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import { errorOf } from '../helpers/errors.ts';
import { headingsOf, mean, tableNeighbourF1, tablesOf, textSimilarity } from '../helpers/metrics.ts';
import { NO_DEADLINE } from '../helpers/timeouts.ts';

const md = async (bytes: Uint8Array, filename: string, options = {}) =>
  (await parse(bytes, options, { filename })).markdown ?? '';

const FIXTURE_MD = [
  '## Sales',
  '',
  '| Quarterly sales | Quarterly sales | Quarterly sales | Quarterly sales |',
  '| --- | --- | --- | --- |',
  '| Date | Region | Growth | Revenue |',
  '| 2024-01-01 | North | 12.5% | $1,234.50 |',
  '| 2024-04-01 | South | -5.0% | $2,000.00 |',
  '',
  '| Note | Figures are unaudited |',
  '| --- | --- |',
  '',
  '## Stock',
  '',
  '| Item | Count |',
  '| --- | --- |',
  '| Pens | 3 |',
  '',
].join('\n');

describe('sheet adapter: fixtures', () => {
  const xlsx = fixture('sheet', 'basic.xlsx');

  it('renders formatted dates, percentages, currency, a merged header, blocks, and skips the hidden sheet', async () => {
    expect(await md(xlsx, 'basic.xlsx')).toBe(FIXTURE_MD);
  });

  it('reads the same workbook saved as Excel binary (.xlsb) identically', async () => {
    expect(await md(fixture('sheet', 'basic.xlsb'), 'basic.xlsb')).toBe(FIXTURE_MD);
  });

  it('makes one sheet section per visible sheet with its name, and reads workbook properties', async () => {
    const { tree } = await parseTree(xlsx, {}, { filename: 'basic.xlsx' });
    const sections = tree.children as Section[];
    expect(sections.map((s) => [s.kind, s.number, s.name])).toEqual([
      ['sheet', 1, 'Sales'],
      ['sheet', 3, 'Stock'],
    ]);
    expect(tree.metadata).toMatchObject({ numPages: 2, title: 'Sales book', author: 'Ada Lovelace' });
    const first = sections[0]?.children[1];
    expect(first?.type).toBe('table');
    const merged = first?.type === 'table' ? first.children[0] : undefined;
    expect(merged?.children[0]?.colSpan).toBe(4);
  });

  it('reads binary Excel: merged header and separate blocks', async () => {
    const out = await md(fixture('sheet', 'basic.xls'), 'basic.xls');
    const [sales, note] = tablesOf(out);
    expect(sales?.[0]).toEqual(['quarterly sales', 'quarterly sales', 'quarterly sales', 'quarterly sales']);
    expect(sales?.[1]).toEqual(['date', 'region', 'growth', 'revenue']);
    expect(note).toEqual([['note', 'figures are unaudited']]);
  });

  it('reads an .xls whose compound file also holds an embedded Word document as the workbook', async () => {
    // Before: 400 'The file is not a Word document (no WordDocument stream).'
    const bytes = fixture('sheet', 'embedded-word.xls');
    expect(detect(bytes, { filename: 'embedded-word.xls' }).kind).toBe('xls');
    expect(detect(bytes).kind).toBe('xls');
    const out = await md(bytes, 'embedded-word.xls');
    expect(tablesOf(out)[0]?.[1]).toEqual(['date', 'region', 'growth', 'revenue']);
  });

  it('reads a cut .xls whose lost tail held only part of the mini stream the workbook does not use', async () => {
    // The last 700 bytes of embedded-word.xls are mini-stream sectors of the embedded object and the
    // summary. The workbook stream before them is whole; SheetJS read it, and so must the container
    // the engine rebuilds for it (it failed as "sector out of range").
    const whole = fixture('sheet', 'embedded-word.xls');
    const cut = whole.slice(0, whole.length - 700);
    expect(await md(cut, 'embedded-word.xls')).toBe(await md(whole, 'embedded-word.xls'));
  });

  it('decrypts workbooks encrypted with Excel\'s default password "VelvetSweatshop" (agile and standard)', async () => {
    // Before: 400 'The document is password-protected or encrypted'.
    // 100,000 SHA-512 rounds each: seconds of CPU, far more on a busy machine.
    for (const name of ['velvet-agile.xlsx', 'velvet-standard.xlsx'])
      expect(await md(fixture('sheet', name), name, NO_DEADLINE)).toBe(FIXTURE_MD);
  });

  it('decrypts RC4-encrypted .xls: VelvetSweatshop by default, a user password from hints.password', async () => {
    // Before: 400 'The spreadsheet is password-protected.'
    expect(await md(fixture('sheet', 'velvet-rc4.xls'), 'velvet-rc4.xls')).toBe(FIXTURE_MD);
    const locked = fixture('sheet', 'password-rc4.xls');
    const opened = await parse(locked, {}, { filename: 'password-rc4.xls', password: 'Tr0ub4dor&3' });
    expect(opened.markdown).toBe(FIXTURE_MD);
    await expect(parse(locked, {}, { filename: 'password-rc4.xls' })).rejects.toThrow(
      /cannot be read without its password/,
    );
    await expect(parse(locked, {}, { filename: 'password-rc4.xls', password: 'nope' })).rejects.toThrow(
      /password given does not open it/,
    );
  });

  it('caps the cells of a sheet and warns', async () => {
    const engine = createEngine({ limits: { maxCellsPerSheet: 12 } });
    const res = await engine.parse(xlsx, {}, { filename: 'basic.xlsx' });
    expect(res.warning).toMatch(/Sheet "Sales" has more than 12 cells/);
    expect(res.markdown).toContain('| Date | Region | Growth | Revenue |');
    expect(res.markdown).not.toContain('South');
  });

  it('answers truncated and garbage workbooks with a clear 400', async () => {
    const is400 = (e: unknown) => e instanceof DocmillError && e.status === 400;
    await expect(parse(xlsx.subarray(0, 4000), {}, { filename: 'x.xlsx' })).rejects.toSatisfy(is400);
    const garbage = new Uint8Array(4096).map((_, i) => (i * 7919) % 251);
    garbage.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    await expect(parse(garbage, {}, { filename: 'x.xls' })).rejects.toSatisfy(is400);
  });
});

describe('sheet adapter: blank spacer columns and rows', () => {
  it('keeps a financial statement one table: labels, a blank column, figures, blank rows between sections', async () => {
    const out = await md(fixture('sheet', 'statement.xlsx'), 'statement.xlsx');
    const tables = tablesOf(out);
    expect(tables).toHaveLength(2);
    expect(tables[0]).toEqual([['consolidated statement of profit or loss']]);
    expect(out).toContain('| € million | Note | FY2024 | FY2023 | FY2022 |');
    expect(out).toContain('| Cost of sales |  | (81) | (29) | (44) |');
    expect(out).toContain('| Administrative expenses | 5 | (412) | (398) | (377) |');
    expect(tables[1]?.at(-1)).toEqual(['profit before tax', '', '734', '722', '564']);
  });

  it('keeps a Page column that sits after a blank column with its topics', async () => {
    const tables = tablesOf(await md(fixture('sheet', 'contents.xlsx'), 'contents.xlsx'));
    expect(tables).toHaveLength(1);
    expect(tables[0]?.[0]).toEqual(['topic', 'page']);
    expect(tables[0]?.[3]).toEqual(['priming and first start', '9']);
  });
});

describe('sheet adapter: Excel binary text', () => {
  const NAMES_MD = [
    '## Données été',
    '',
    '| Région | Chiffre |',
    '| --- | --- |',
    '| Île-de-France | 12 |',
    '',
    '## 売上 2024',
    '',
    '| 品目 | 数量 |',
    '| --- | --- |',
    '| りんご | 3 |',
    '',
    '## Отчёт 📊',
    '',
    '| Город | Счёт |',
    '| --- | --- |',
    '| Москва | 7 |',
    '',
  ].join('\n');

  it('decodes non-ASCII sheet names and cells of an .xlsb', async () => {
    expect(await md(fixture('sheet', 'names.xlsb'), 'names.xlsb')).toBe(NAMES_MD);
  });

  it('cuts string lengths that overrun their records instead of reading the next records as text', async () => {
    // Before: 7,340,217 characters of mojibake (one line of 4,194,326) from a 5,584-byte file.
    const res = await parse(fixture('sheet', 'names-damaged.xlsb'), {}, { filename: 'names-damaged.xlsb' });
    expect(res.markdown).toBe(NAMES_MD);
    expect(res.warning).toMatch(/binary workbook is damaged: 2 text length/);
  });
});

describe.skipIf(!hasCorpus)(`sheet adapter: docling corpus (${hasCorpus ? 'present' : corpusSkipReason})`, () => {
  const pairs = [
    ...corpusPairs('docling/xlsx/sources'),
    ...corpusPairs('docling/xls/sources'),
    ...corpusPairs('docling/odf/sources', '.ods'),
  ];
  const convert = async (name: string) => {
    const pair = pairs.find((p) => p.name === name);
    if (!pair) throw new Error(`missing ${name}`);
    return { out: await md(new Uint8Array(readFileSync(pair.path)), name), truth: pair.truth ?? '' };
  };

  it('xlsx_01: sheet headings in order, blocks as separate tables, chart series', async () => {
    const { out } = await convert('xlsx_01.xlsx');
    expect(headingsOf(out)).toEqual(['sheet1', 'sheet2', 'sheet3']);
    const tables = tablesOf(out);
    expect(tables[0]?.[0]).toEqual(['first', 'second', 'third']);
    expect(tables[0]?.[6]).toEqual(['6', '0', '-6']);
    expect(tables[1]?.[0]).toEqual(['col-1', 'col-2', 'col-3', 'col-4']);
    expect(tables[2]?.[0]).toEqual(['col-1', 'col-2', 'col-3']);
    expect(out).toContain('|  | col-2 | col-3 | col-4 |');
  });

  it('xlsx_02 (xlsm): dates as displayed, cached formula values', async () => {
    const { out } = await convert('xlsx_02_sample_sales_data.xlsm');
    expect(out).toContain('| Widget A | 2024-01-01 0:00:00 | 5 | 5000 |');
    const sums = (await convert('xlsx_03_chartsheet.xlsx')).out;
    expect(sums).toContain('| 2019 | 120 | 80 | 200 |');
    expect(headingsOf(sums)).toEqual(['duck observations', 'duck chart']);
    expect(sums).toContain('Wild Duck Observations by Year');
  });

  it('xlsx_06 and xlsx_07: merged cells repeat, separated blocks split', async () => {
    const edge = (await convert('xlsx_06_edge_cases_.xlsx')).out;
    expect(headingsOf(edge).slice(0, 3)).toEqual(['missing header head', 'attached left', 'diagonal']);
    const gaps = tablesOf((await convert('xlsx_07_gap_tolerance_.xlsx')).out);
    expect(gaps[0]).toEqual([['high voltage switchboard'], ['data sheet']]);
    expect(gaps.find((t) => t[0]?.[0]?.startsWith('package no'))?.[1]?.slice(0, 3)).toEqual([
      '13156456',
      '13156456',
      '13156456',
    ]);
  });

  it('xls, ods and comments: title block apart from the data table', async () => {
    for (const name of ['legacy_sample.xls', 'odf_table_with_title_01.ods']) {
      const tables = tablesOf((await convert(name)).out);
      expect(tables[0]).toEqual([['number of freshwater ducks per year']]);
      expect(tables[1]?.[6]).toEqual(['2024', '180']);
    }
    expect((await convert('xlsx_comments.xlsx')).out).toContain('[author: John Reviewer]: Why Python specifically?');
  });

  it('meets the format targets (text ≥ 0.93, tables ≥ 0.85)', async () => {
    const scores = await Promise.all(
      pairs
        .filter((p) => p.truth)
        .map(async (p) => {
          const { out, truth } = await convert(p.name);
          return { text: textSimilarity(out, truth), table: tableNeighbourF1(out, truth) };
        }),
    );
    expect(scores).toHaveLength(13);
    expect(mean(scores.map((s) => s.text))).toBeGreaterThanOrEqual(0.93);
    expect(mean(scores.map((s) => s.table))).toBeGreaterThanOrEqual(0.85);
  });
});

describe.skipIf(!hasCorpus)('sheet adapter: markitdown corpus', () => {
  it('test.xlsx and test.xls convert with their sheets and cells', async () => {
    for (const name of ['test.xlsx', 'test.xls']) {
      const out = await md(corpusFile('markitdown', name), name);
      expect(headingsOf(out).length).toBeGreaterThan(0);
      expect(tablesOf(out).length).toBeGreaterThan(0);
    }
  });
});

describe('sheet adapter: bombs', () => {
  it('refuses a zip bomb before anything inflates it', async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types/>');
    zip.file('xl/workbook.xml', '<x/>');
    zip.file('xl/worksheets/sheet1.xml', 'A'.repeat(24 * 1024 * 1024));
    const bytes = await zip.generateAsync({
      type: 'uint8array',
      compression: 'DEFLATE',
      compressionOptions: { level: 9 },
    });
    await expect(parse(bytes, {}, { filename: 'bomb.xlsx' })).rejects.toSatisfy(
      (e: unknown) => e instanceof DocmillError && e.status === 400 && /zip bomb/i.test(e.message),
    );
  });
});

describe('sheet adapter: damaged compound files', () => {
  /**
   * basic.xls with the root's mini-stream chain (sectors 3→…→8) looped back from 8 to 4, and the
   * Workbook entry moved into the loop at a size read through the FAT. SheetJS walked such a chain
   * without a visit limit until V8 aborted the process.
   */
  function xlsWithCyclicChain(): Uint8Array {
    const bytes = fixture('sheet', 'basic.xls');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const sector = (n: number) => (n + 1) * 512;
    const fat = sector(view.getUint32(0x4c, true));
    const chain: number[] = [];
    for (let s = 3; s < 0xfffffffd && chain.length < 16; s = view.getUint32(fat + s * 4, true)) chain.push(s);
    expect(chain).toEqual([3, 4, 5, 6, 7, 8]);
    view.setUint32(fat + 8 * 4, 4, true);
    const entry = sector(view.getUint32(0x30, true)) + 2 * 128;
    expect(new TextDecoder('utf-16le').decode(bytes.subarray(entry, entry + 16))).toBe('Workbook');
    view.setUint32(entry + 116, 5, true);
    view.setUint32(entry + 120, 4096, true);
    return bytes;
  }

  it('a cyclic sector chain is a 400, and the engine still reads a clean workbook afterwards', async () => {
    const engine = createEngine();
    const err = await errorOf(engine.parse(xlsWithCyclicChain(), {}, { filename: 'cyclic.xls' }));
    expect([err.status, err.code, err.message]).toEqual([
      400,
      'BAD_REQUEST',
      'The compound file is damaged (broken sector chain).',
    ]);
    const clean = await engine.parse(fixture('sheet', 'basic.xls'), {}, { filename: 'basic.xls' });
    expect(tablesOf(clean.markdown ?? '')[0]?.[1]).toEqual(['date', 'region', 'growth', 'revenue']);
  });
});

describe('sheet adapter: counts past the end of a record', () => {
  it('a summary property count of two billion is ignored like any damaged metadata', async () => {
    // basic.xls with its SummaryInformation section's property count (4) set to 0x7FFFFFFF: SheetJS
    // pushed one entry per claimed property, reading far past the stream, until the process died.
    const bytes = fixture('sheet', 'basic.xls');
    const fmtid = Buffer.from('e0859ff2f94f6810ab9108002b27b3d9', 'hex'); // FMTID_SummaryInformation
    const set = Buffer.from(bytes).indexOf(fmtid) - 28;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const section = set + view.getUint32(set + 44, true);
    expect(view.getUint32(section + 4, true)).toBe(4);
    view.setUint32(section + 4, 0x7fffffff, true);
    const out = await md(bytes, 'damaged.xls');
    expect(tablesOf(out)[0]?.[1]).toEqual(['date', 'region', 'growth', 'revenue']);
  });

  it('a metadata block claiming two billion records is read to the end of metadata.bin', async () => {
    // basic.xlsb with its BrtMdb record (0x33, body '01000000 01000000 00000000') counting 0x7FFFFFFF
    // entries: SheetJS pushed one per claimed entry until the process died.
    const zip = await JSZip.loadAsync(fixture('sheet', 'basic.xlsb'));
    const part = (await zip.file('xl/metadata.bin')?.async('uint8array')) ?? new Uint8Array(0);
    const mdb = Buffer.from(part).indexOf(Buffer.from('330c010000000100000000000000', 'hex'));
    expect(mdb).toBeGreaterThan(0);
    new DataView(part.buffer, part.byteOffset, part.byteLength).setUint32(mdb + 2, 0x7fffffff, true);
    zip.file('xl/metadata.bin', part);
    expect(await md(await zip.generateAsync({ type: 'uint8array' }), 'damaged.xlsb')).toBe(FIXTURE_MD);
  });

  it('a formula whose tokens run past their length is read, not looped on', async () => {
    // basic.xls with the LABEL record of B2 ("Date", 0x0204) retyped to a BIFF3 FORMULA (0x0206):
    // its token parser overshot the formula's end and, waiting to land on it exactly, never ended.
    const bytes = fixture('sheet', 'basic.xls');
    const label = Buffer.from(bytes).indexOf(Buffer.from('04021100010001001000040001', 'hex'));
    expect(label).toBeGreaterThan(0);
    bytes[label] = 0x06;
    const [sales] = tablesOf(await md(bytes, 'damaged.xls'));
    expect(sales?.[1]?.slice(1)).toEqual(['region', 'growth', 'revenue']);
    expect(sales?.[2]).toEqual(['2024-01-01', 'north', '12.5%', '$1,234.50']);
  });

  it('an ExternSheet record with no room for its count is a 400', async () => {
    // basic.xls with the Workbook stream's final EOF record (0x000A, empty) retyped to ExternSheet
    // (0x0017): the XTI count read past the record was NaN, and SheetJS looped on it forever.
    const bytes = fixture('sheet', 'basic.xls');
    const stream = openCfb(bytes).stream('Workbook') ?? new Uint8Array(0);
    const tail = Buffer.from(stream.subarray(stream.length - 40));
    const at = Buffer.from(bytes).indexOf(tail);
    expect(tail.subarray(36).toString('hex')).toBe('0a000000');
    expect(at).toBeGreaterThan(0);
    bytes[at + 36] = 0x17;
    const err = await errorOf(parse(bytes, {}, { filename: 'damaged.xls' }));
    expect([err.status, err.code]).toEqual([400, 'BAD_REQUEST']);
    expect(err.message).toMatch(/^The spreadsheet is damaged or not a supported format \(Bad ExternSheet/);
  });
});

describe('sheet adapter: damaged encryption headers', () => {
  it('a header size pointing past EncryptionInfo is a 400, not a RangeError 500', async () => {
    // velvet-standard.xlsx (standard encryption, version 4.2): the header size that locates the
    // verifier set to 0x7FFFFFFF.
    const bytes = fixture('sheet', 'velvet-standard.xlsx');
    const info = Buffer.from(bytes).indexOf(Buffer.from([4, 0, 2, 0, 0x24, 0, 0, 0]));
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(view.getUint32(info + 8, true)).toBe(140);
    view.setUint32(info + 8, 0x7fffffff, true);
    const err = await errorOf(parse(bytes, {}, { filename: 'damaged.xlsx' }));
    expect([err.status, err.code, err.message]).toEqual([
      400,
      'BAD_REQUEST',
      'The document is encrypted and its encryption header is damaged.',
    ]);
  });
  it('a spin count of ten million does not hold off the deadline', async () => {
    // velvet-agile.xlsx with spinCount 100000 → 9999999 (a newline dropped to keep the stream's size).
    // The rounds were synchronous, so an abort could only be seen after all of them, and the
    // caller got "password-protected" most of a minute later.
    const bytes = Buffer.from(fixture('sheet', 'velvet-agile.xlsx'));
    const at = bytes.indexOf('?>\n<encryption ');
    const spins = bytes.indexOf('spinCount="100000"');
    expect(at).toBeGreaterThan(0);
    expect(spins).toBeGreaterThan(at);
    const damaged = Buffer.concat([
      bytes.subarray(0, at + 2),
      bytes.subarray(at + 3, spins),
      Buffer.from('spinCount="9999999"'),
      bytes.subarray(spins + 'spinCount="100000"'.length),
    ]);
    expect(damaged.length).toBe(bytes.length);
    const deadline = new AbortController();
    setTimeout(() => deadline.abort(timeoutError(20)), 20);
    const err = await errorOf(decryptOoxml(damaged, undefined, deadline.signal));
    expect([err.status, err.code]).toEqual([408, 'SCRAPE_TIMEOUT']);
  });
});

describe('sheet adapter: damaged cell references', () => {
  it('a cell referenced past the last row is left out instead of walking billions of empty rows', async () => {
    // basic.xlsx with one cell's reference damaged to row 2^31: SheetJS stores it at that index, and
    // the row list's length became 2^31 + 1.
    const zip = await JSZip.loadAsync(fixture('sheet', 'basic.xlsx'));
    const xml = await zip.file('xl/worksheets/sheet1.xml')?.async('string');
    expect(xml).toContain('<c r="C6" t="str"><v>Figures are unaudited</v>');
    zip.file('xl/worksheets/sheet1.xml', xml?.replace('<c r="C6"', '<c r="C2147483649"') ?? '');
    const damaged = await zip.generateAsync({ type: 'uint8array' });
    const out = await md(damaged, 'damaged.xlsx');
    expect(out).toBe(FIXTURE_MD.replace('| Note | Figures are unaudited |\n| --- | --- |', '| Note |\n| --- |'));
  });
});

describe('sheet adapter: string lengths past the end of a part', () => {
  it('a font name claiming two billion characters is read only to the end of styles.bin', async () => {
    // basic.xlsb with its first BrtFont (record 0x2B) name length set to 0x7FFFFFF0. SheetJS reads
    // such a string one character at a time without Node's Buffer, which took minutes.
    const zip = await JSZip.loadAsync(fixture('sheet', 'basic.xlsb'));
    const part = (await zip.file('xl/styles.bin')?.async('uint8array')) ?? new Uint8Array(0);
    const font = Buffer.from(part).indexOf(Buffer.from('Calibri', 'utf16le'));
    expect(part[font - 25 - 2]).toBe(0x2b); // record type, one length byte, then the 21-byte font header
    const view = new DataView(part.buffer, part.byteOffset, part.byteLength);
    expect(view.getUint32(font - 4, true)).toBe(7);
    view.setUint32(font - 4, 0x7ffffff0, true);
    zip.file('xl/styles.bin', part);
    const out = await md(await zip.generateAsync({ type: 'uint8array' }), 'damaged.xlsb');
    expect(out).toBe(FIXTURE_MD);
  });
});

describe('sheet adapter: unnamed sheets', () => {
  it('a spreadsheet table without a name is headed by its position', async () => {
    // basic.odp relabelled as a spreadsheet: its one table has no table:name, and SheetJS left the
    // sheet name undefined, which reached the renderer as a heading without text (a 500).
    const zip = await JSZip.loadAsync(fixture('odp', 'basic.odp'));
    expect(await zip.file('content.xml')?.async('string')).toContain('<table:table table:use-first-row-styles="true">');
    zip.file('mimetype', 'application/vnd.oasis.opendocument.spreadsheet', { compression: 'STORE' });
    const out = await md(await zip.generateAsync({ type: 'uint8array' }), 'unnamed.ods');
    expect(out).toBe('## Sheet 1\n\n| Metric | Value |\n| --- | --- |\n| Users | 1200 |\n');
  });
});

describe.skipIf(!hasCorpus)(`sheet adapter: drawings (${hasCorpus ? 'corpus present' : corpusSkipReason})`, () => {
  /** A corpus workbook with one part replaced by markup that does not parse. */
  const damaged = async (file: string, part: string) => {
    const zip = await JSZip.loadAsync(corpusFile('docling/xlsx/sources', file));
    expect(zip.file(part)).not.toBeNull();
    zip.file(part, '<xdr:wsDr><xdr:unclosed></xdr:wsDr>');
    return zip.generateAsync({ type: 'uint8array' });
  };

  it('a drawing that relates to no chart is not read: its damage costs nothing', async () => {
    // xlsx_08's only drawing anchors a picture (its relationships name an image, no chart).
    const file = 'xlsx_08_one_cell_anchor.xlsx';
    const whole = await parse(corpusFile('docling/xlsx/sources', file), {}, { filename: file });
    const res = await parse(await damaged(file, 'xl/drawings/drawing1.xml'), {}, { filename: file });
    expect(res.markdown).toBe(whole.markdown);
    expect(res.markdown).toContain('## ');
    expect(res.warning).toBeNull();
  });

  it('a drawing that relates to a chart is read: its damage skips the charts with a warning, not the cells', async () => {
    const file = 'xlsx_01.xlsx';
    const whole = await parse(corpusFile('docling/xlsx/sources', file), {}, { filename: file });
    const res = await parse(await damaged(file, 'xl/drawings/drawing1.xml'), {}, { filename: file });
    expect(res.warning).toMatch(/charts could not be read/);
    expect(tablesOf(res.markdown ?? '')[0]).toEqual(tablesOf(whole.markdown ?? '')[0]);
  });
});
