import { describe, expect, it } from 'vitest';
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

describe.each(pdfBackends)('PDF text objects (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('ends a cell with its text object where the next cell’s object starts flush against it', async () => {
    // A ruled grid; in the second row the name is cut at its cell's edge, as schools.pdf's
    // "Matthew C. & Elizab" is: its last glyph an object of its own, 0.3 pt before the street's.
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
    const md = (await parse(objectsPdf(objects, rules))).markdown ?? '';
    expect(md).toContain('| Matthew & Elizab | 2165 Princeton | Saint Paul |');
    expect(md).not.toContain('Elizab2165');
  });
});
