/**
 * Hostile structure: small, well-formed documents built to exhaust time, memory or the call stack.
 * Each case once crashed the process, ran far past the timeout, or failed with a 500; each asserts
 * the sensible result the engine gives instead.
 */
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { createEngine, parse, redactTree } from '../src/index.ts';
import type { Root } from '../src/tree/types.ts';
import { append, maxOf, minOf } from '../src/util/arrays.ts';
import { pdfOf } from './helpers/pdf-build.ts';
import { NO_DEADLINE } from './helpers/timeouts.ts';

const enc = (s: string) => new TextEncoder().encode(s);

async function zip(files: Record<string, string>): Promise<Uint8Array> {
  const z = new JSZip();
  for (const [name, data] of Object.entries(files)) z.file(name, data, { compression: 'STORE' });
  return z.generateAsync({ type: 'uint8array' });
}

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const rels = (list: [string, string, string][]) =>
  `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${list
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`)
    .join('')}</Relationships>`;
const types = (override: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${override}</Types>`;

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';
function odf(kind: 'text' | 'spreadsheet', body: string): Promise<Uint8Array> {
  const mime = `application/vnd.oasis.opendocument.${kind}`;
  return zip({
    mimetype: mime,
    'META-INF/manifest.xml': `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mime}"/></manifest:manifest>`,
    'styles.xml': `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${ODF_NS}/>`,
    'content.xml': `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS}><office:body><office:${kind}>${body}</office:${kind}></office:body></office:document-content>`,
  });
}

const P_NS = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${REL}" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"`;
function pptx(spTree: string, extra: Record<string, string> = {}, slideRels: [string, string, string][] = []) {
  return zip({
    '[Content_Types].xml': types(
      '<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>',
    ),
    '_rels/.rels': rels([['rId1', 'officeDocument', 'ppt/presentation.xml']]),
    'ppt/presentation.xml': `<?xml version="1.0" encoding="UTF-8"?><p:presentation ${P_NS}><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': rels([['rId1', 'slide', 'slides/slide1.xml']]),
    'ppt/slides/slide1.xml': `<?xml version="1.0" encoding="UTF-8"?><p:sld ${P_NS}><p:cSld><p:spTree>${spTree}</p:spTree></p:cSld></p:sld>`,
    'ppt/slides/_rels/slide1.xml.rels': rels(slideRels),
    ...extra,
  });
}

const X_NS = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"`;
function xlsx(sheet: string) {
  return zip({
    '[Content_Types].xml': types(
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>',
    ),
    '_rels/.rels': rels([['rId1', 'officeDocument', 'xl/workbook.xml']]),
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook ${X_NS}><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': rels([['rId1', 'worksheet', 'worksheets/sheet1.xml']]),
    'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8"?><worksheet ${X_NS}>${sheet}</worksheet>`,
  });
}

/** A one-page PDF of raw content-stream operators (Courier as F1). */
function onePagePdf(content: string): Uint8Array {
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 3 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  return pdfOf(objs);
}

describe('array helpers', () => {
  it('append, minOf and maxOf take lists far past the arguments a call can spread', () => {
    const many = Array.from({ length: 500_000 }, (_, i) => i);
    expect(append([-1], many)).toHaveLength(500_001);
    expect(minOf(many)).toBe(0);
    expect(maxOf(many)).toBe(499_999);
    expect(minOf([], 7)).toBe(7);
  });
});

describe('hostile structure', () => {
  it('HTML: a <pre> of 200,000 lines is one code block (the shared-indent scan spread every line)', async () => {
    const res = await parse(
      enc(`<html><body><pre>${'  ab\n'.repeat(200_000)}</pre></body></html>`),
      {},
      {
        filename: 'a.html',
      },
    );
    const md = res.markdown ?? '';
    expect(md.startsWith('```\nab\nab\n')).toBe(true);
    expect(md.split('\n').filter((l) => l === 'ab')).toHaveLength(200_000);
  });

  it('HTML: markup past maxHtmlElements start tags is dropped before the DOM is built (47 MB of <p> killed the process)', async () => {
    const page = `<html><body>${Array.from({ length: 3000 }, (_, i) => `<p>n${i}</p>`).join('')}</body></html>`;
    const res = await createEngine({ limits: { maxHtmlElements: 1000 } }).parse(enc(page), {}, { filename: 'a.html' });
    expect(res.warning).toBe('The page has more than 1000 elements; the markup past that was dropped.');
    // <html> and <body> are two of the thousand: paragraphs n0 … n997 remain.
    const paras = (res.markdown ?? '').trim().split('\n\n');
    expect(paras).toHaveLength(998);
    expect(paras.at(-1)).toBe('n997');
  });

  it('HTML: what only looks like tags inside scripts, style sheets and comments does not count toward maxHtmlElements', async () => {
    const script = `<script>for (let i = 0; i<n; i++) out += '<div><span>' + i;</script>`.repeat(200);
    const style = `<style>a<b{color:red}</style>`.repeat(200);
    const comment = `<!-- <p>old</p><p>older</p> -->`.repeat(200);
    const cdata = `<![CDATA[ <x><y> ]]>`.repeat(200);
    const paras = Array.from({ length: 50 }, (_, i) => `<p>n${i}</p>`).join('');
    const page = `<html><head>${style}</head><body>${script}${comment}${cdata}${paras}</body></html>`;
    // <html>, <head>, <body>, 200 style sheets, 200 scripts and 50 paragraphs: 453 elements.
    const res = await createEngine({ limits: { maxHtmlElements: 453 } }).parse(enc(page), {}, { filename: 'a.html' });
    expect(res.warning).toBeNull();
    expect((res.markdown ?? '').trim().split('\n\n').at(-1)).toBe('n49');
    const cut = await createEngine({ limits: { maxHtmlElements: 452 } }).parse(enc(page), {}, { filename: 'a.html' });
    expect(cut.warning).toBe('The page has more than 452 elements; the markup past that was dropped.');
    expect((cut.markdown ?? '').trim().split('\n\n').at(-1)).toBe('n48');
  });

  it('HTML: styled-heading detection stops at its rule-check budget (20,000 rules on one class ran for minutes)', async () => {
    const css = Array.from({ length: 5000 }, (_, i) => `.a{font-size:${10 + (i % 5)}px}`).join('');
    const page = `<html><head><style>${css}.big{font-size:40px}</style></head><body><p class="big">Title</p>${'<p class="a">body text</p>'.repeat(1000)}</body></html>`;
    // The budget counts rule checks, not time: a busy machine takes 20 s and more over this page.
    const md = (await parse(enc(page), NO_DEADLINE, { filename: 'a.html' })).markdown ?? '';
    // 1,000 paragraphs × 5,000 candidate rules is past the budget: no heading is guessed from styles.
    expect(md.startsWith('Title\n\nbody text\n\n')).toBe(true);
    expect(md.split('body text').length - 1).toBe(1000);
    // Under the budget the same page does get its styled heading.
    const small = page.replace('<p class="a">body text</p>'.repeat(1000), '<p class="a">body text</p>'.repeat(100));
    expect((await parse(enc(small), {}, { filename: 'a.html' })).markdown?.startsWith('# Title\n')).toBe(true);
  });

  it('DOCX: a 20,000-character list level text is cut to 100 characters on each item', async () => {
    const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const numbering = `<?xml version="1.0"?><w:numbering ${W}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="${'%1.'.repeat(7000)}"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;
    const item = (t: string) =>
      `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>${t}</w:t></w:r></w:p>`;
    const file = await zip({
      '[Content_Types].xml': types(
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>',
      ),
      '_rels/.rels': rels([['rId1', 'officeDocument', 'word/document.xml']]),
      'word/document.xml': `<?xml version="1.0"?><w:document ${W}><w:body>${item('alpha')}${item('beta')}</w:body></w:document>`,
      'word/_rels/document.xml.rels': rels([['rId1', 'numbering', 'numbering.xml']]),
      'word/numbering.xml': numbering,
    });
    const lines = ((await parse(file, {}, { filename: 'a.docx' })).markdown ?? '').trim().split('\n');
    expect(lines).toEqual([`- ${'1.'.repeat(33)}% alpha`, `- ${'2.'.repeat(33)}% beta`]);
  });

  it('EPUB: a chapter listed 2,000 times in the spine is read once', async () => {
    const file = await zip({
      mimetype: 'application/epub+zip',
      'META-INF/container.xml':
        '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="p.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
      'p.opf': `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title></metadata><manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/><item id="d" href="d.xhtml" media-type="application/xhtml+xml"/></manifest><spine>${'<itemref idref="c"/>'.repeat(2000)}<itemref idref="d"/></spine></package>`,
      'c.xhtml':
        '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>Once upon a time</p></body></html>',
      'd.xhtml': '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>The end</p></body></html>',
    });
    const md = (await parse(file, {}, { filename: 'a.epub' })).markdown ?? '';
    expect(md).toBe('Once upon a time\n\nThe end\n');
  });

  it('PDF: a line joined from hundreds of out-of-order fragments is built once, with every letter in place', async () => {
    // Letters drawn alternately on two baselines: every run is its own fragment, and 110 of them
    // join each line (past the rebuild cap, so the deferred path makes the line).
    const letter = (k: number) => String.fromCharCode(97 + (k % 26));
    const ops = Array.from(
      { length: 220 },
      (_, i) => `BT /F1 8 Tf ${20 + (i >> 1) * 4.8} ${i % 2 ? 600 : 700} Td (${letter(i >> 1)}) Tj ET`,
    ).join('\n');
    const md = (await parse(onePagePdf(ops), {}, { filename: 'a.pdf' })).markdown ?? '';
    const line = Array.from({ length: 110 }, (_, k) => letter(k)).join('');
    expect(md).toBe(`${line}\n\n${line}\n`);
  });

  it('PII: a paragraph of 150,000 runs is redacted in place (the rewrite spread every run as an argument)', async () => {
    const runs = Array.from({ length: 150_000 }, (_, i) => ({ type: 'text' as const, value: i === 0 ? 'Mail ' : 'x' }));
    runs.splice(1, 0, { type: 'text', value: 'SECRET' });
    const tree: Root = { type: 'root', metadata: {}, children: [{ type: 'paragraph', children: runs }] };
    const find = async (texts: readonly string[]) =>
      texts.map((t) => {
        const at = t.indexOf('SECRET');
        return at < 0
          ? []
          : [{ start: at, end: at + 6, entity: 'SECRET' as const, validated: true, source: 'pattern' as const }];
      });
    const out = await redactTree(tree, find, 'tag');
    const para = out.children[0] as { children: { value?: string }[] };
    expect(para.children.slice(0, 3).map((n) => n.value)).toEqual(['Mail ', '<SECRET>', 'x']);
    expect(para.children).toHaveLength(150_001);
  });

  it('PII: a mailto: link of 150,000 runs loses its target and keeps its text (remove spread every run)', async () => {
    const runs = Array.from({ length: 150_000 }, (_, i) => ({
      type: 'text' as const,
      value: i === 0 ? 'write ' : 'x',
    }));
    const link = { type: 'link' as const, href: 'mailto:jane@example.com', children: runs };
    const tree: Root = {
      type: 'root',
      metadata: {},
      children: [{ type: 'paragraph', children: [{ type: 'text', value: 'Or ' }, link] }],
    };
    const find = async (texts: readonly string[]) =>
      texts.map((t) => {
        const at = t.indexOf('jane@example.com');
        return at < 0
          ? []
          : [{ start: at, end: at + 16, entity: 'EMAIL' as const, validated: true, source: 'pattern' as const }];
      });
    const out = await redactTree(tree, find, 'remove');
    const para = out.children[0] as { children: { type: string; value?: string }[] };
    expect(para.children).toEqual([{ type: 'text', value: `Or write ${'x'.repeat(149_999)}` }]);
  });

  it('PPTX: outline levels past DrawingML’s nine nest no deeper than level 8', async () => {
    const paras = Array.from(
      { length: 3000 },
      (_, i) => `<a:p><a:pPr lvl="${i}"><a:buChar char="•"/></a:pPr><a:r><a:t>item${i}</a:t></a:r></a:p>`,
    ).join('');
    const shape = `<p:sp><p:nvSpPr><p:cNvPr id="2" name="T"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paras}</p:txBody></p:sp>`;
    const md = (await parse(await pptx(shape), {}, { filename: 'a.pptx' })).markdown ?? '';
    const indents = md
      .split('\n')
      .filter((l) => /^\s*- item/.test(l))
      .map((l) => l.indexOf('-'));
    expect(indents).toHaveLength(3000);
    expect(maxOf(indents)).toBe(16);
    expect(md).toContain(`${' '.repeat(16)}- item2999`);
  });

  it('charts: a point at idx 5,000,000 is one row, not five million', async () => {
    const chart = `<?xml version="1.0"?><c:chartSpace ${P_NS}><c:chart><c:plotArea><c:barChart><c:ser><c:tx><c:v>Sales</c:v></c:tx><c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>Q1</c:v></c:pt><c:pt idx="5000000"><c:v>Q9</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>3</c:v></c:pt><c:pt idx="5000000"><c:v>4</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>`;
    const frame = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="3" name="C"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart r:id="rId5"/></a:graphicData></a:graphic></p:graphicFrame>`;
    const file = await pptx(frame, { 'ppt/charts/chart1.xml': chart }, [['rId5', 'chart', '../charts/chart1.xml']]);
    const md = (await parse(file, {}, { filename: 'a.pptx' })).markdown ?? '';
    expect(md).toContain('|  | Sales |\n| --- | --- |\n| Q1 | 3 |\n| Q9 | 4 |\n');
    expect(md.split('\n').filter((l) => l.startsWith('|'))).toHaveLength(4);
  });

  it('charts: a blank source cell (its index in no cache) keeps its row, as before the sparse-index guard', async () => {
    const pt = (i: number, v: string) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`;
    const chart = `<?xml version="1.0"?><c:chartSpace ${P_NS}><c:chart><c:plotArea><c:lineChart><c:ser><c:tx><c:v>Sales</c:v></c:tx><c:cat><c:strRef><c:strCache><c:ptCount val="4"/>${pt(0, 'Q1')}${pt(1, 'Q2')}${pt(3, 'Q4')}</c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:ptCount val="4"/>${pt(0, '3')}${pt(1, '5')}${pt(3, '4')}</c:numCache></c:numRef></c:val></c:ser></c:lineChart></c:plotArea></c:chart></c:chartSpace>`;
    const frame = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="3" name="C"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart r:id="rId5"/></a:graphicData></a:graphic></p:graphicFrame>`;
    const file = await pptx(frame, { 'ppt/charts/chart1.xml': chart }, [['rId5', 'chart', '../charts/chart1.xml']]);
    const md = (await parse(file, {}, { filename: 'a.pptx' })).markdown ?? '';
    expect(md).toContain('|  | Sales |\n| --- | --- |\n| Q1 | 3 |\n| Q2 | 5 |\n| 3 |  |\n| Q4 | 4 |\n');
  });

  it('XLSX: a merge over 300,000 positions is ignored with a warning instead of enumerated', async () => {
    const file = await xlsx(
      '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>first</t></is></c></row><row r="3000"><c r="CV3000" t="inlineStr"><is><t>last</t></is></c></row></sheetData><mergeCells count="1"><mergeCell ref="A1:CV3000"/></mergeCells>',
    );
    const res = await parse(file, {}, { filename: 'a.xlsx' });
    expect(res.warning).toMatch(
      /Sheet "S" has merged ranges covering more than 200000 cells; 1 merge\(s\) were ignored/,
    );
    expect(res.markdown).toContain('| first |');
    expect(res.markdown).toContain('| last |');
  });

  it('ODS: content repeated a million times over is cut before the spreadsheet reader copies it', async () => {
    const file = await odf(
      'spreadsheet',
      '<table:table table:name="S"><table:table-row table:number-rows-repeated="1000"><table:table-cell table:number-columns-repeated="1000" office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row><table:table-row><table:table-cell office:value-type="string"><text:p>tail</text:p></table:table-cell></table:table-row></table:table>',
    );
    const res = await createEngine({ limits: { maxCellsPerSheet: 5000 } }).parse(file, {}, { filename: 'a.ods' });
    expect(res.warning).toMatch(
      /Repeated cells with content ask for more than 5000 cells in a sheet; the repeats were cut/,
    );
    // Five rows of 1,000 copies fill the budget; past it the last row appears once.
    const rows = (res.markdown ?? '').split('\n').filter((l) => l.startsWith('| x |'));
    expect(rows.length).toBe(5);
    expect(rows[0]?.split('| x ').length).toBe(1001);
  });

  it('ODS: the ignored-merge warning names an unnamed table as its heading does, not "undefined"', async () => {
    const cell = (v: string, extra = '') =>
      `<table:table-cell office:value-type="string"${extra}><text:p>${v}</text:p></table:table-cell>`;
    const file = await odf(
      'spreadsheet',
      `<table:table><table:table-row>${cell('first', ' table:number-columns-spanned="100" table:number-rows-spanned="100"')}</table:table-row><table:table-row table:number-rows-repeated="98"><table:table-cell table:number-columns-repeated="100"/></table:table-row><table:table-row><table:table-cell table:number-columns-repeated="99"/>${cell('last')}</table:table-row></table:table>`,
    );
    const res = await createEngine({ limits: { maxCellsPerSheet: 5000 } }).parse(file, {}, { filename: 'a.ods' });
    expect(res.markdown).toMatch(/^## Sheet 1\n/);
    expect(res.warning).toBe(
      'Sheet "Sheet 1" has merged ranges covering more than 5000 cells; 1 merge(s) were ignored.',
    );
  });

  it('ODT: nested tables whose rows repeat thousands of times stop at the part’s cell budget', async () => {
    const inner = `<table:table><table:table-row table:number-rows-repeated="100"><table:table-cell><text:p>in</text:p></table:table-cell></table:table-row></table:table>`;
    const file = await odf(
      'text',
      `<text:p>before</text:p><table:table><table:table-row table:number-rows-repeated="300"><table:table-cell>${inner}</table:table-cell></table:table-row></table:table>`,
    );
    const res = await createEngine({ limits: { maxTableCells: 10_000 } }).parse(file, {}, { filename: 'a.odt' });
    expect(res.warning).toMatch(/A table repeats or nests more than 10000 cells; the rows past that were dropped/);
    const md = res.markdown ?? '';
    expect(md).toMatch(/^before\n/);
    // 300 × 101 cells would be 30,300; the budget keeps fewer than 10,000 "in" cells.
    const cells = md.split('in').length - 1;
    expect(cells).toBeGreaterThan(9000);
    expect(cells).toBeLessThan(10_000);
  });

  it('ODT: blank padding rows repeated to the end of a sheet spend no cell budget; the next table keeps its rows', async () => {
    const row = (a: string, b: string) =>
      `<table:table-row><table:table-cell><text:p>${a}</text:p></table:table-cell><table:table-cell><text:p>${b}</text:p></table:table-cell></table:table-row>`;
    // A range pasted from a spreadsheet: its rows, then the rest of the sheet as one blank row repeated.
    const padding =
      '<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>';
    const file = await odf(
      'text',
      `<table:table>${row('a', 'b')}<table:table-row table:number-rows-repeated="2"><table:table-cell table:number-columns-repeated="2"/></table:table-row>${row('c', 'd')}${padding}</table:table><text:p>between</text:p><table:table>${row('e', 'f')}${row('g', 'h')}</table:table>`,
    );
    const res = await createEngine({ limits: { maxTableCells: 10_000 } }).parse(file, {}, { filename: 'a.odt' });
    expect(res.warning).toBeNull();
    // Blank rows between content rows stay; the padding after the last one goes.
    expect(res.markdown).toBe(
      '|  |  |\n| --- | --- |\n| a | b |\n|  |  |\n|  |  |\n| c | d |\n\nbetween\n\n|  |  |\n| --- | --- |\n| e | f |\n| g | h |\n',
    );
  });

  it('ODT: a table whose first row is empty keeps its later rows (a hole made a 500)', async () => {
    const file = await odf(
      'text',
      '<table:table><table:table-row><table:table-cell/><table:table-cell/></table:table-row><table:table-row><table:table-cell><text:p>x</text:p></table:table-cell><table:table-cell><text:p>y</text:p></table:table-cell></table:table-row></table:table>',
    );
    const res = await parse(file, {}, { filename: 'a.odt' });
    expect(res.markdown).toBe('|  |  |\n| --- | --- |\n|  |  |\n| x | y |\n');
  });
});
