import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { partReader } from '../../src/adapters/ooxml/opc.ts';
import { readXlsx } from '../../src/adapters/sheet/xlsx.ts';
import type { Ssf } from '../../src/adapters/sheet/xlsx-format.ts';
import { DEFAULT_LIMITS } from '../../src/limits.ts';
import { decodeEntities } from '../../src/util/xml-reader.ts';
import { openZip } from '../../src/util/zip.ts';
import { corpusRoot, corpusSkipReason, hasCorpus, projectRoot } from '../helpers/corpus.ts';
import { prng } from '../helpers/damage.ts';
import { generated, pack } from '../helpers/xlsx-build.ts';

/**
 * The XLSX reader against SheetJS, which read XLSX before it: the same sheet names, hidden flags,
 * properties, and in every cell the same type, displayed text, value and comments, and the same
 * merges, on every XLSX of the fixtures and the corpus and on generated workbooks that use every
 * cell type, built-in and custom number formats, both date systems, formulas without values,
 * rich and phonetic text, escapes, comments and threaded comments.
 */

type Book = { SheetNames: string[]; Sheets: Record<string, unknown>; Workbook?: unknown; Props?: unknown };

/**
 * The one intended difference: SheetJS kept note authors, threaded-comment texts and people's names
 * as the raw bytes of the XML (`Ann &amp; Co`, `MÃ¼ller`); the reader decodes them (`Ann & Co`,
 * `Müller`). This decodes SheetJS's side so the rest must match exactly.
 */
const decodeRaw = (s: string) => decodeEntities(Buffer.from(s, 'latin1').toString('utf8'));

function project(wb: Book, raw: (s: string) => string = (s) => s): unknown {
  const meta = (wb.Workbook as { Sheets?: { Hidden?: number }[] } | undefined)?.Sheets ?? [];
  const props = (wb.Props ?? {}) as Record<string, unknown>;
  return {
    names: wb.SheetNames,
    hidden: wb.SheetNames.map((_, i) => meta[i]?.Hidden ?? 0),
    props: { title: props.Title, author: props.Author, last: props.LastAuthor },
    sheets: wb.SheetNames.map((name) => {
      const ws = wb.Sheets[name] as { '!data'?: unknown[][]; '!merges'?: unknown } | undefined;
      const cells: unknown[] = [];
      for (const [r, row] of Object.entries(ws?.['!data'] ?? {}))
        for (const [c, cell] of Object.entries(row ?? {})) {
          const x = cell as { t: string; v?: unknown; w?: string; c?: { a: string; t: string }[] };
          const v = x.v instanceof Date ? `date:${Number.isNaN(x.v.getTime()) ? 'invalid' : x.v.toISOString()}` : x.v;
          cells.push([r, c, x.t, x.w, v, x.c?.map((n) => [raw(n.a), (n as { T?: boolean }).T ? raw(n.t) : n.t])]);
        }
      return { cells, merges: ws?.['!merges'] ?? null };
    }),
  };
}

async function both(bytes: Uint8Array): Promise<{ ours: unknown; sheetjs: unknown }> {
  const zip = await openZip(bytes, DEFAULT_LIMITS);
  const ours = await readXlsx(zip, partReader(zip, DEFAULT_LIMITS), XLSX.SSF as unknown as Ssf, DEFAULT_LIMITS);
  const wb = XLSX.read(bytes, { type: 'array', cellDates: true, cellNF: true, dense: true, WTF: false });
  return { ours: project(ours as unknown as Book), sheetjs: project(wb as unknown as Book, decodeRaw) };
}

function workbooksUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
  return walk(dir).filter((f) => /\.xls[xm]$/i.test(f));
}

describe('XLSX reader against SheetJS', () => {
  it('reads every XLSX of the fixtures as SheetJS did', async () => {
    // Encrypted workbooks are compound files holding the zip encrypted: not this reader's input.
    const files = workbooksUnder(join(projectRoot, 'fixtures')).filter(
      (f) => readFileSync(f).readUInt32LE(0) === 0x04034b50,
    );
    expect(files.length).toBeGreaterThan(2);
    for (const f of files) {
      const { ours, sheetjs } = await both(new Uint8Array(readFileSync(f)));
      expect(ours, f).toEqual(sheetjs);
    }
  });

  it.skipIf(!hasCorpus)(
    `reads every XLSX of the corpus as SheetJS did (${hasCorpus ? 'present' : corpusSkipReason})`,
    async () => {
      const files = workbooksUnder(corpusRoot);
      expect(files.length).toBeGreaterThan(10);
      for (const f of files) {
        const { ours, sheetjs } = await both(new Uint8Array(readFileSync(f)));
        expect(ours, f).toEqual(sheetjs);
      }
    },
  );

  it('reads generated workbooks as SheetJS does: every cell type, format, date system and quirk', async () => {
    const rand = prng(2828);
    for (let k = 0; k < 40; k++) {
      const bytes = await generated(rand, k);
      const { ours, sheetjs } = await both(bytes);
      expect(ours, `workbook ${k}`).toEqual(sheetjs);
    }
  }, 120_000);

  it('drops a sheet SheetJS could not read and keeps the others', async () => {
    const book = await pack({
      sheets: [
        { name: 'Bad', cells: '<row r="1"><c r="A1" t="s"><v>7</v></c></row>' },
        { name: 'Dateless', cells: '<row r="1"><c r="A1" t="d"/></row>' },
        { name: 'Good', cells: '<row r="1"><c r="A1"><v>1</v></c></row>' },
      ],
      strings: ['only'],
    });
    const { ours, sheetjs } = await both(book);
    expect(ours).toEqual(sheetjs);
    expect((ours as { sheets: { cells: unknown[] }[] }).sheets.map((s) => s.cells.length)).toEqual([0, 0, 1]);
  });
});
