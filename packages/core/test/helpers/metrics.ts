/**
 * Scoring utilities for tests (issue targets are written in these metrics):
 * - textSimilarity: word-level 2·LCS/(|a|+|b|) after stripping Markdown syntax.
 * - tableNeighbourF1: F1 over (cell, right neighbour) and (cell, cell below) pairs of every table.
 * - headingF1: F1 over heading texts, level ignored.
 */

/** Removes Markdown and HTML syntax, keeping the words a reader sees. */
export function stripMarkdown(md: string): string {
  return md
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, ' $1 ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, ' $1 ')
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<\/?[a-zA-Z][^>]*>/g, ' ')
    .replace(/&(nbsp|amp|lt|gt);/g, (_m, e: string) => ({ nbsp: ' ', amp: '&', lt: '<', gt: '>' })[e] ?? ' ')
    .replace(/^\s*\|?(\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*$/gm, ' ')
    .replace(/[|*_`#>~\\]/g, ' ');
}

export function wordsOf(md: string): string[] {
  return (
    stripMarkdown(md)
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** LCS length by dynamic programming over two rows; fine for test-sized documents. */
export function lcs(a: readonly string[], b: readonly string[]): number {
  if (!a.length || !b.length) return 0;
  const ids = new Map<string, number>();
  const id = (w: string) => {
    let v = ids.get(w);
    if (v === undefined) {
      v = ids.size;
      ids.set(w, v);
    }
    return v;
  };
  const A = Int32Array.from(a, id);
  const B = Int32Array.from(b, id);
  let prev = new Int32Array(B.length + 1);
  let cur = new Int32Array(B.length + 1);
  for (let i = 1; i <= A.length; i++) {
    for (let j = 1; j <= B.length; j++) {
      cur[j] = A[i - 1] === B[j - 1] ? (prev[j - 1] as number) + 1 : Math.max(prev[j] as number, cur[j - 1] as number);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[B.length] as number;
}

export function textSimilarity(predicted: string, expected: string): number {
  const a = wordsOf(predicted);
  const b = wordsOf(expected);
  if (a.length + b.length === 0) return 1;
  return (2 * lcs(a, b)) / (a.length + b.length);
}

/** A cell's text as the table metrics compare it: Markdown dropped, NFKC, lower case, blanks collapsed. */
export const cellKey = (s: string) =>
  stripMarkdown(s)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[^\p{L}\p{N} .,%$€£-]/gu, '')
    .trim();

/**
 * Tables of a Markdown document (pipe tables and HTML tables) as rows of cell texts, each made a key
 * by `key` (`cellKey` unless told).
 */
export function tablesOf(md: string, key: (cell: string) => string = cellKey): string[][][] {
  const out: string[][][] = [];
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; ) {
    if (!/^\s*\|/.test(lines[i] as string)) {
      i++;
      continue;
    }
    const rows: string[][] = [];
    for (; i < lines.length && /^\s*\|/.test(lines[i] as string); i++) {
      const line = (lines[i] as string).trim();
      // Delimiter rows, whatever their dash count (`| - |` and `| --- |` are both valid GFM).
      if (/^[\s|:-]+$/.test(line) && line.includes('-')) continue;
      rows.push(
        line
          .replace(/^\|/, '')
          .replace(/\|$/, '')
          .split(/(?<!\\)\|/)
          .map(key),
      );
    }
    out.push(rows);
  }
  for (const t of md.matchAll(/<table[\s\S]*?<\/table>/gi)) {
    const rows = [...t[0].matchAll(/<tr[\s\S]*?<\/tr>/gi)].map((tr) =>
      [...tr[0].matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/gi)].map((c) => key(c[1] ?? '')),
    );
    out.push(rows);
  }
  return out.filter((t) => t.length > 0);
}

function neighbourPairs(tables: string[][][]): Map<string, number> {
  const pairs = new Map<string, number>();
  const add = (k: string) => pairs.set(k, (pairs.get(k) ?? 0) + 1);
  for (const t of tables) {
    t.forEach((row, r) => {
      row.forEach((v, c) => {
        if (!v) return;
        const right = row.slice(c + 1).find(Boolean);
        if (right) add(`R|${v}|${right}`);
        const below = t[r + 1]?.[c];
        if (below) add(`B|${v}|${below}`);
      });
    });
  }
  return pairs;
}

function f1(pred: Map<string, number>, gold: Map<string, number>): number | null {
  let tp = 0;
  let np = 0;
  let ng = 0;
  for (const v of pred.values()) np += v;
  for (const [k, v] of gold) {
    ng += v;
    tp += Math.min(v, pred.get(k) ?? 0);
  }
  if (ng === 0) return null;
  if (np === 0 || tp === 0) return 0;
  const p = tp / np;
  const r = tp / ng;
  return (2 * p * r) / (p + r);
}

/** Multiset F1 of the non-empty cells of two tables (0 when they share none). */
export function tableCellF1(predicted: string[][], expected: string[][]): number {
  const count = (rows: string[][]) => {
    const m = new Map<string, number>();
    for (const r of rows) for (const c of r) if (c) m.set(c, (m.get(c) ?? 0) + 1);
    return m;
  };
  return f1(count(predicted), count(expected)) ?? 0;
}

/** Neighbour-pair F1 of one table against another (0 when they share no pair). */
export function tableRowsNeighbourF1(predicted: string[][], expected: string[][]): number {
  return f1(neighbourPairs([predicted]), neighbourPairs([expected])) ?? 0;
}

/** Null when the expected document has no table. */
export function tableNeighbourF1(predicted: string, expected: string): number | null {
  return f1(neighbourPairs(tablesOf(predicted)), neighbourPairs(tablesOf(expected)));
}

export function headingsOf(md: string): string[] {
  const hs = [...md.matchAll(/^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((m) => m[1] ?? '');
  hs.push(...[...md.matchAll(/<h[1-6][^>]*>([\s\S]*?)<\/h[1-6]>/gi)].map((m) => m[1] ?? ''));
  return hs.map((h) => wordsOf(h).join(' ')).filter(Boolean);
}

/** Null when the expected document has no heading. */
export function headingF1(predicted: string, expected: string): number | null {
  const count = (xs: string[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());
  return f1(count(headingsOf(predicted)), count(headingsOf(expected)));
}

export const mean = (xs: readonly (number | null)[]): number | null => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
};

/**
 * Slide decks: the issue asks for speaker notes as `> ` quotes and a `## Slide N` heading on untitled
 * slides; Docling's ground truth has neither, so both come out before scoring slide text against it.
 */
export const withoutSlideAdditions = (md: string): string =>
  md.replace(/^>.*$/gm, '').replace(/^#{1,2} Slide \d+$/gm, '');
