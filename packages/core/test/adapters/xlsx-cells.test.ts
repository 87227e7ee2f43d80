import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { partReader } from '../../src/adapters/ooxml/opc.ts';
import { readXlsx } from '../../src/adapters/sheet/xlsx.ts';
import { type RawRow, scanSharedStrings, scanSheetData, treeRows } from '../../src/adapters/sheet/xlsx-cells.ts';
import { NotForThisReader, type Ssf } from '../../src/adapters/sheet/xlsx-format.ts';
import { stringItem } from '../../src/adapters/sheet/xlsx-text.ts';
import { DEFAULT_LIMITS } from '../../src/limits.ts';
import { deep, isElement, localName, parseXml, textOf } from '../../src/util/xml.ts';
import { openZip } from '../../src/util/zip.ts';
import { corpusRoot, hasCorpus, projectRoot } from '../helpers/corpus.ts';
import { pack } from '../helpers/xlsx-build.ts';

/**
 * The tree-less cell scanner against the tree reading it stands in for: the same rows, cells,
 * attributes, values, formulas and inline strings on every worksheet of the fixtures and the
 * corpus and on hand-written sections; and no reading at all (the tree then reads the part) of any
 * section written in a form it does not take.
 */

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/** What the cell reader uses of a row list. */
function project(rows: RawRow[]): unknown {
  return rows.map((r) => ({
    r: r.r,
    cells: r.cells.map((c) => ({
      r: c.r,
      s: c.s,
      t: c.t,
      v: c.v,
      f: c.f && { name: c.f.name, attrs: c.f.attrs, text: textOf(c.f) },
      is: c.is && stringItem(c.is),
    })),
  }));
}

/** Scan and tree reading of one worksheet part; `scanned` is undefined when the scanner declined. */
function readBoth(xml: string): { scanned: unknown; tree: unknown } {
  const normal = xml.replace(/\r\n?/g, '\n');
  const scan = scanSheetData(normal);
  const sheetData = deep(parseXml(xml, DEFAULT_LIMITS), 'sheetData')[0];
  return { scanned: scan && project(scan.rows), tree: project(sheetData ? treeRows(sheetData) : []) };
}

const sheet = (cells: string) => `<worksheet xmlns="${NS}"><sheetData>${cells}</sheetData></worksheet>`;

function worksheetsOf(file: string): string[] {
  const out: string[] = [];
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
  if (!existsSync(file)) return out;
  return walk(file).filter((f) => /\.xls[xm]$/i.test(f) && readFileSync(f).readUInt32LE(0) === 0x04034b50);
}

async function partsNamed(file: string, pattern: RegExp): Promise<string[]> {
  const zip = await openZip(new Uint8Array(readFileSync(file)), DEFAULT_LIMITS);
  const parts: string[] = [];
  for (const name of zip.names) if (pattern.test(name)) parts.push((await zip.text(name)) as string);
  return parts;
}
const sheetParts = (file: string) => partsNamed(file, /^xl\/worksheets\/[^/]+\.xml$/);

/** Shared strings scanned and read as a tree, as the string reader gives them. */
function stringsBoth(xml: string): { scanned: unknown; tree: unknown } {
  const scan = scanSharedStrings(xml.replace(/\r\n?/g, '\n'));
  const root = parseXml(xml, DEFAULT_LIMITS);
  const items = root.children.filter((c) => isElement(c) && localName(c.name) === 'si');
  return { scanned: scan?.items.map((si) => stringItem(si)), tree: items.map((si) => stringItem(si as never)) };
}

describe('XLSX cell scanner', () => {
  it('reads every worksheet of the fixtures and the corpus as the tree does', async () => {
    const files = [...worksheetsOf(join(projectRoot, 'fixtures')), ...(hasCorpus ? worksheetsOf(corpusRoot) : [])];
    expect(files.length).toBeGreaterThan(2);
    let scanned = 0;
    for (const f of files)
      for (const xml of await sheetParts(f)) {
        const both = readBoth(xml);
        if (both.scanned === undefined) continue;
        scanned++;
        expect(both.scanned, f).toEqual(both.tree);
      }
    // Excel, LibreOffice and openpyxl write plain sections: the scanner takes every one of them.
    expect(scanned).toBeGreaterThan(hasCorpus ? 25 : 2);
  });

  it('reads entities, line ends, quotes, empty and self-closing elements and inline strings as the tree does', () => {
    const cases = [
      '<row r="1"><c r="A1" t="str"><v>a &amp; b &lt;c&gt; &#65;&#x42;</v></c><c r="B1"><v/></c><c r="C1"/></row>',
      "<row r='2' spans='1:3'><c r='A2' s='3' t='n'><v>1.5</v></c><c r=\"B2\" r=\"B9\"><v>2</v></c></row>",
      '<row r="3"><c r="A3" t="inlineStr"><is><t xml:space="preserve"> two\r\nlines </t></is></c></row>',
      '<row r="4"><c r="A4" t="inlineStr"><is/></c><c r="B4" t="inlineStr"><is><t/></is></c></row>',
      '<row r="5"><c r="A5"><f t="shared" ref="A5:A9" si="0">B5*2</f><v>4</v></c><c r="A6"><f t="shared" si="0"/><v>6</v></c></row>',
      '<row r="6"/>\n  <row r="7">\n    <c r="A7" t="e"><v>#N/A</v><v>ignored</v></c>\n  </row>',
      '<row r="8"><c r="A8" t="b"><v>1</v></c><c r="B8" t="d"><v>2024-01-31T00:00:00</v></c></row>',
    ];
    for (const cells of cases) {
      const { scanned, tree } = readBoth(sheet(cells));
      expect(scanned, cells).toBeDefined();
      expect(scanned, cells).toEqual(tree);
    }
  });

  it('leaves every other form to the tree reading', () => {
    const declined = [
      sheet('<row r="1"><c r="A1" t="inlineStr"><is><r><t>rich</t></r></is></c></row>'),
      sheet('<row r="1"><c r="A1"><v>1</v><extLst/></c></row>'),
      sheet('<row r="1"><c r="A1"><v><![CDATA[1]]></v></c></row>'),
      sheet('<row r="1"><!-- note --><c r="A1"><v>1</v></c></row>'),
      sheet('<row r="1"><c r="A1" ><v>1</v ></c></row>'),
      sheet('<row r="1"><c r = "A1"><v>1</v></c></row>'),
      sheet('<row r="1">text<c r="A1"><v>1</v></c></row>'),
      sheet('<row r="1"><c r="A1" constructor="x"><v>1</v></c></row>'),
      `<x:worksheet xmlns:x="${NS}"><x:sheetData><x:row><x:c><x:v>1</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
      `<worksheet xmlns="${NS}"><!-- <sheetData/> --><sheetData><row><c><v>1</v></c></row></sheetData></worksheet>`,
      `<worksheet xmlns="${NS}"><sheetData><row><c><v>1</v></c></row></worksheet>`,
    ];
    for (const xml of declined) expect(scanSheetData(xml), xml).toBeUndefined();
  });

  it('reads shared strings as the tree does, and leaves rich and phonetic text to it', async () => {
    const files = [...worksheetsOf(join(projectRoot, 'fixtures')), ...(hasCorpus ? worksheetsOf(corpusRoot) : [])];
    let scanned = 0;
    for (const f of files)
      for (const xml of await partsNamed(f, /^xl\/sharedStrings\.xml$/)) {
        const both = stringsBoth(xml);
        if (both.scanned === undefined) continue;
        scanned++;
        expect(both.scanned, f).toEqual(both.tree);
      }
    expect(scanned).toBeGreaterThan(hasCorpus ? 7 : 1);
    const sst = (items: string) => `<?xml version="1.0"?>\r\n<sst xmlns="${NS}" count="3">${items}</sst>`;
    const plain = sst(
      '<si><t>a &amp; b_x000D_</t></si> <si><t xml:space="preserve"> two\r\nlines </t></si><si/><si><t/></si><si> </si>',
    );
    expect(stringsBoth(plain).scanned).toEqual(['a & b\r', ' two\nlines ', '', '', '']);
    expect(stringsBoth(plain).scanned).toEqual(stringsBoth(plain).tree);
    for (const other of [
      sst('<si><r><t>rich</t></r></si>'),
      sst('<si><t>base</t><rPh sb="0" eb="1"><t>ph</t></rPh></si>'),
      sst('<!-- c --><si><t>x</t></si>'),
      `<x:sst xmlns:x="${NS}"><x:si><x:t>x</x:t></x:si></x:sst>`,
    ])
      expect(scanSharedStrings(other), other).toBeUndefined();
  });

  it('reads a workbook whose scanned cells are followed by damaged markup as the tree reading does: not at all', async () => {
    const book = await pack({
      sheets: [
        { name: 'S', cells: '<row r="1"><c r="A1"><v>1</v></c></row>', merges: '<mergeCells><mergeCell ref="A1:B1"/>' },
      ],
    });
    const zip = await openZip(book, DEFAULT_LIMITS);
    await expect(
      readXlsx(zip, partReader(zip, DEFAULT_LIMITS), XLSX.SSF as unknown as Ssf, DEFAULT_LIMITS),
    ).rejects.toBeInstanceOf(NotForThisReader);
  });
});
