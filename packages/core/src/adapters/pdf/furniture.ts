import type { Line } from './lines.ts';

export interface FurniturePage {
  height: number;
  lines: Line[];
}

const BAND = 0.12;
const pageNumber =
  /^(?:page|p\.|seite|pág\.?|стр\.?)?\s*[-–(]?\s*(?:\d{1,4}|[ivxlcdm]{1,6})\s*[-–)]?\s*(?:(?:of|\/|von|de)\s*\d{1,4})?$/i;

function key(l: Line, top: boolean): string {
  return `${top ? 'T' : 'B'}|${l.text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, '')}`;
}

/**
 * Marks running headers, footers and page numbers: lines in the top or bottom band of a page whose
 * text (digits folded, so "Page 3" equals "Page 4") recurs on enough pages, plus lone page numbers.
 * Returns, per page, the set of line indices to drop.
 */
export function findFurniture(pages: FurniturePage[]): Set<Line> {
  const drop = new Set<Line>();
  const n = pages.length;
  const counts = new Map<string, number>();
  const bands: { line: Line; key: string }[][] = pages.map((p) => {
    const out: { line: Line; key: string }[] = [];
    const seen = new Set<string>();
    for (const l of p.lines) {
      const top = l.y1 < p.height * BAND;
      const bottom = l.y0 > p.height * (1 - BAND);
      if (!top && !bottom) continue;
      const k = key(l, top);
      out.push({ line: l, key: k });
      if (!seen.has(k)) {
        seen.add(k);
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
    }
    return out;
  });
  if (n < 2) return drop;
  // Alternating odd/even headers recur on about half the pages; chapter headers on fewer.
  const needed = n <= 3 ? 2 : Math.max(3, Math.ceil(n * 0.25));
  for (const band of bands) {
    for (const { line, key: k } of band) {
      if ((counts.get(k) ?? 0) >= needed || (line.text.length <= 20 && pageNumber.test(line.text.trim())))
        drop.add(line);
    }
  }
  return drop;
}
