import { describe, expect, it } from 'vitest';
import type { TextStart } from '../../src/adapters/pdf/extract.ts';
import type { TextItem } from '../../src/adapters/pdf/model.ts';
import { CHECKS, splitAtTextStarts } from '../../src/adapters/pdf/text-objects.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pdfOf } from '../helpers/pdf-build.ts';

/** Text objects of 8-point Courier (every glyph 4.8 points wide): `[x, y, text]`. */
type Obj = readonly [number, number, string];

function objectsPdf(objects: readonly Obj[], rules: string): Uint8Array {
  const text = objects
    .map(([x, y, t]) => `BT /F1 8 Tf ${x} ${y} Td (${t.replace(/[\\()]/g, '\\$&')}) Tj ET`)
    .join('\n');
  const content = `${rules}\n${text}`;
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ]);
}

/**
 * A ruled grid; in the second row the name is cut at its cell's edge, as schools.pdf's
 * "Matthew C. & Elizab" is: its last glyph an object of its own, 0.3 pt before the street's.
 */
function clippedTable(): { objects: Obj[]; rules: string } {
  const cols = [68, 147, 257, 330];
  const rows = [
    ['Name', 'Street', 'City'],
    ['Matthew & Eliza', '2165 Princeton', 'Saint Paul'],
    ['Ruby Hunt', '1840 University', 'Saint Paul'],
    ['Robert Cudahy', '616 Cherokee', 'Saint Paul'],
    ['Mary Larson', '233 Rivercrest', 'Hudson'],
  ];
  const top = 700;
  const pitch = 14;
  const objects: Obj[] = [];
  rows.forEach((row, r) => {
    const y = top - 10 - r * pitch;
    objects.push([72, y, row[0] as string]);
    if (r === 1) objects.push([144, y, 'b']);
    objects.push([149.1, y, row[1] as string]);
    objects.push([261, y, row[2] as string]);
  });
  const bottom = top - rows.length * pitch;
  const rules = [
    ...rows.map((_, r) => `68 ${top - r * pitch} m 330 ${top - r * pitch} l S`),
    `68 ${bottom} m 330 ${bottom} l S`,
    ...cols.map((x) => `${x} ${top} m ${x} ${bottom} l S`),
  ].join('\n');
  return { objects, rules };
}

describe.each(pdfBackends)('PDF text objects (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('ends a cell with its text object where the next cell’s object starts flush against it', async () => {
    const { objects, rules } = clippedTable();
    const md = (await parse(objectsPdf(objects, rules))).markdown ?? '';
    expect(md).toContain('| Matthew & Elizab | 2165 Princeton | Saint Paul |');
    expect(md).not.toContain('Elizab2165');
  });

  it('reads a page of thousands of objects drawn over one another on one line, and its table', async () => {
    // Each run of the overdrawn line holds hundreds of the other objects' starts.
    const { objects, rules } = clippedTable();
    const body = 'abcdefghij'.repeat(5);
    for (let i = 0; i < 4000; i++) objects.push([72 + (i % 300), 400, body]);
    const md = (await parse(objectsPdf(objects, rules))).markdown ?? '';
    expect(md).toContain('| Matthew & Elizab | 2165 Princeton | Saint Paul |');
    expect(md).toContain(body);
  }, 300_000);
});

/** A 10-point run of `str` at `x` on baseline `base`, 5 points a character. */
function run(str: string, x: number, base = 700): TextItem {
  return {
    str,
    x,
    y: base - 10,
    w: str.length * 5,
    h: 10,
    size: 10,
    fontName: 'F',
    fontId: 'F',
    bold: false,
    italic: false,
    dir: 'ltr',
    hasEOL: false,
  } as TextItem;
}

describe('PDF text objects: cutting runs at their starts', () => {
  it('cuts a run where the next cell’s object starts inside it', () => {
    const items = [run('Elizab2165 Princeton', 72)];
    const starts: TextStart[] = [{ x: 102, base: 700, size: 10, head: '2165' }];
    expect(splitAtTextStarts(items, starts).map((it) => it.str)).toEqual(['Elizab', '2165 Princeton']);
  });

  it('leaves runs drawn over one another whole, looking at few starts', () => {
    // Thousands of objects 1 pt apart on one baseline, each run holding hundreds of the others'
    // starts: reading them all is quadratic (20,000 of them took 84 s).
    const body = 'abcdefghij'.repeat(12);
    const n = 5000;
    const items = Array.from({ length: n }, (_, i) => run(body, 72 + (i % 300)));
    const starts = items.map((it): TextStart => ({ x: it.x, base: 700, size: 10, head: 'abcd' }));
    const work = { checks: 0 };
    const out = splitAtTextStarts(items, starts, work);
    expect(out).toEqual(items);
    // Only the runs at the right end, holding few starts, look at them (all of them read over 3,000
    // each).
    expect(work.checks).toBeLessThan(n);
  });

  it('stops looking at starts past a page’s budget, leaving the later runs whole', () => {
    // Each run holds one start, a cut of its own: 100 runs a line, lines 12 pt apart, more runs
    // than the budget allows.
    const n = CHECKS + 1000;
    const items = Array.from({ length: n }, (_, i) =>
      run('Elizab2165', 72 + (i % 100) * 60, 700 - 12 * Math.floor(i / 100)),
    );
    const starts = items.map((it): TextStart => ({ x: it.x + 30, base: it.y + 10, size: 10, head: '2165' }));
    const work = { checks: 0 };
    const out = splitAtTextStarts(items, starts, work);
    expect(work.checks).toBe(CHECKS);
    expect(out.length).toBe(n + CHECKS);
    expect(out.slice(0, 2).map((it) => it.str)).toEqual(['Elizab', '2165']);
    expect(out[out.length - 1]?.str).toBe('Elizab2165');
  });
});
