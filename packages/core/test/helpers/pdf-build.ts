import { joinBytes } from '../../src/util/bytes.ts';

/**
 * A PDF file of the given object bodies, numbered from 1 (object 1 must be the catalog), with a
 * cross-reference table whose offsets are exact: for tests that build a hostile structure in place.
 * A body may hold binary parts (a stream's bytes) beside its text.
 */
export function pdfOf(objects: readonly (string | readonly (string | Uint8Array)[])[]): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [enc.encode('%PDF-1.7\n')];
  let length = parts[0]?.length ?? 0;
  const push = (p: string | Uint8Array) => {
    const bytes = typeof p === 'string' ? enc.encode(p) : p;
    parts.push(bytes);
    length += bytes.length;
  };
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    push(`${i + 1} 0 obj\n`);
    for (const piece of typeof body === 'string' ? [body] : body) push(piece);
    push('\nendobj\n');
  });
  const xref = length;
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) tail += `${String(o).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  push(tail);
  return joinBytes(parts);
}

/**
 * A PDF of pages `w` by `h` points, each drawn by its content stream, in Helvetica (`F1`) and
 * Helvetica-Bold (`F2`), and in the fonts `fonts` describes (`F3` on, each a font dictionary).
 */
export function pagesPdf(contents: readonly string[], w = 612, h = 792, fonts: readonly string[] = []): Uint8Array {
  const first = 5 + fonts.length;
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${contents.map((_, k) => `${first + 2 * k} 0 R`).join(' ')}] /Count ${contents.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    ...fonts,
  ];
  const names = ['/F1 3 0 R', '/F2 4 0 R', ...fonts.map((_, k) => `/F${3 + k} ${5 + k} 0 R`)].join(' ');
  for (const [k, ops] of contents.entries())
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /Font << ${names} >> >> /Contents ${first + 1 + 2 * k} 0 R >>`,
      `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
    );
  return pdfOf(objects);
}

/**
 * The operators drawing one line of text at (`x`, `y`) in a `pagesPdf` font (`F1` Helvetica, `F2`
 * its bold), its parentheses and backslashes escaped for a PDF string.
 */
export const textAt = (x: number, y: number, text: string, size = 10, font = 'F1'): string =>
  `BT /${font} ${size} Tf ${x} ${y} Td (${text.replace(/[\\()]/g, '\\$&')}) Tj ET`;

/** UTF-16BE hex of a string: the codes of a font whose CMap is a Uni…-UCS2-H one (`<…> Tj`). */
export const ucs2 = (s: string): string =>
  [...s].map((c) => (c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')).join('');

/**
 * The operators ruling a grid: horizontal rules at `ys` from the first to the last of `xs`, and
 * vertical ones at `xs` from the first to the last of `ys`, half a point wide.
 */
export function gridRulings(xs: readonly number[], ys: readonly number[]): string[] {
  const x0 = xs[0] as number;
  const x1 = xs[xs.length - 1] as number;
  const y0 = ys[0] as number;
  const y1 = ys[ys.length - 1] as number;
  return ['0.5 w', ...ys.map((y) => `${x0} ${y} m ${x1} ${y} l S`), ...xs.map((x) => `${x} ${y0} m ${x} ${y1} l S`)];
}
