import type { Vocabulary } from '../hyphens.ts';
import type { TableRegion, TextItem } from '../model.ts';
import type { Row } from './borderless.ts';
import { fillLayout, rowBounds, slotLayout } from './cells.ts';
import { twoLetters } from './words.ts';

/*
 * Two-column tables whose rows are bands of lines parted by blank space: a booklet's health
 * professionals, each role set beside the middle of what it does ("GP" halfway down the two lines
 * of its description), or its grades, each label wrapped over two or three lines beside its
 * description's. Rows of one baseline see a label on a line of its own between two description
 * lines, or a label's second line beside a description's, so the table reader found no rows of
 * cells there, and the page read as all its labels, then all its descriptions, or as a label and
 * a description's line fused into each paragraph.
 */

/** Fewest bands that make such a table. */
const MIN_BANDS = 3;
/** Bands of such a table, at most, for each that only a table of bands reads (`bandedTables`). */
const EVIDENCE = 4;
/** Most lines of one label. */
const LABEL_LINES = 3;
/** Widest share of the table the label column takes. */
const LABEL_SHARE = 0.45;
/** A blank space between two lines wider than this many line heights parts two bands. */
const BAND_GAP = 0.6;
/** Least gap, in line heights, between a label and the description column. */
const LABEL_GAP = 0.6;
/** How far from the description column's edge, in points, its lines start. */
const FLUSH = 1.5;

interface Band {
  rows: Row[];
  /** The extents of its label's and its description's lines; the label's is empty without one. */
  lTop: number;
  lBottom: number;
  rTop: number;
  rBottom: number;
  labelLines: number;
  textLines: number;
  labelRight: number;
  textRight: number;
  /** A line of its label goes on from the one above (`goesOn`). */
  continued: boolean;
}

/**
 * Such tables in the region's rows (top down), as table regions of `items`' indices (`chunkTexts`:
 * the text of each of a row's chunks, left to right, as the table reader builds it): three bands
 * in a row at least, each a label (at most three lines at a line's pitch, with a word, no section
 * number) beside a description whose lines start at one edge, the one side standing within the
 * other's height; and for every four bands one at least that rows of one baseline cannot read:
 * its shorter side set beside the middle of the other, its label taller than its description, or
 * a label's line going on from the one above ("(low grade)"). Labels level with their
 * descriptions' lines (a glossary, entries in groups, a play's speakers) are none of these.
 */
export function bandedTables(
  rows: readonly Row[],
  items: TextItem[],
  vocab: () => Vocabulary,
  chunkTexts: (r: Row) => string[],
): TableRegion[] {
  const out: TableRegion[] = [];
  if (rows.length < MIN_BANDS * 2) return out;
  const edge = textEdge(rows);
  if (edge === null) return out;
  const bands = bandsOf(rows, edge, chunkTexts);
  let from = 0;
  for (let k = 0; k <= bands.length; k++) {
    const b = bands[k];
    if (b && pairs(b)) continue;
    if (k - from >= MIN_BANDS) {
      const run = bands.slice(from, k);
      let evidence = 0;
      for (const r of run) if (centred(r) || r.continued || r.labelLines > r.textLines) evidence++;
      if (evidence * EVIDENCE >= run.length) out.push(tableOf(run, edge, items, vocab));
    }
    from = k + 1;
  }
  return out;
}

/**
 * Where the description column starts: the start most lines share among the chunks that do not
 * start a row (or start it well right of the region's left edge), if enough lines start there.
 */
function textEdge(rows: readonly Row[]): number | null {
  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  for (const r of rows) {
    left = Math.min(left, (r.chunks[0] as [number, number])[0]);
    right = Math.max(right, (r.chunks[r.chunks.length - 1] as [number, number])[1]);
  }
  const counts = new Map<number, number>();
  for (const r of rows) {
    for (let k = 0; k < r.chunks.length; k++) {
      const a = (r.chunks[k] as [number, number])[0];
      if (k === 0 && a - left < 3 * r.h) continue;
      const key = Math.round(a);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  let best = -1;
  let most = 0;
  for (const [key, n] of counts) {
    // Starts a point apart are one edge (rounding parts them).
    const all = n + (counts.get(key - 1) ?? 0) + (counts.get(key + 1) ?? 0);
    if (all > most) {
      most = all;
      best = key;
    }
  }
  if (most < MIN_BANDS + 1 || best - left > (right - left) * LABEL_SHARE) return null;
  return best;
}

/**
 * The rows as bands: lines closer than a blank line stay in one band. A line that crosses the
 * description column's edge, or starts there off its line, is a band of its own that pairs nothing.
 */
function bandsOf(rows: readonly Row[], edge: number, chunkTexts: (r: Row) => string[]): Band[] {
  const out: Band[] = [];
  let band: Band | null = null;
  let bottom = Number.NEGATIVE_INFINITY;
  let labelBottom = Number.NEGATIVE_INFINITY;
  let lastLabel = '';
  for (const r of rows) {
    let labelRight = Number.NEGATIVE_INFINITY;
    let textRight = Number.NEGATIVE_INFINITY;
    let crosses = false;
    // The label's chunks come first: chunks are sorted and apart.
    let labelChunks = 0;
    for (const [a, b] of r.chunks) {
      if (b <= edge - r.h * LABEL_GAP) {
        labelRight = Math.max(labelRight, b);
        labelChunks++;
      } else if (a >= edge - FLUSH && (textRight > edge || Math.abs(a - edge) <= FLUSH))
        textRight = Math.max(textRight, b);
      else crosses = true;
    }
    const apart = r.top - bottom > BAND_GAP * r.h;
    bottom = Math.max(bottom, r.bottom);
    if (crosses || !band || apart) {
      band = {
        rows: [],
        lTop: Number.POSITIVE_INFINITY,
        lBottom: Number.NEGATIVE_INFINITY,
        rTop: Number.POSITIVE_INFINITY,
        rBottom: Number.NEGATIVE_INFINITY,
        labelLines: 0,
        textLines: 0,
        labelRight: Number.NEGATIVE_INFINITY,
        textRight: Number.NEGATIVE_INFINITY,
        continued: false,
      };
      out.push(band);
      labelBottom = Number.NEGATIVE_INFINITY;
    }
    band.rows.push(r);
    if (crosses) {
      // Nothing may join a band that pairs nothing.
      band.labelLines = Number.POSITIVE_INFINITY;
      continue;
    }
    if (labelRight > Number.NEGATIVE_INFINITY) {
      // A label's lines follow each other at a line's pitch: two apart are two labels (a verse's
      // first and last words set out), and a word names something (a list's marker holds none).
      const apartFromLabel = labelBottom > Number.NEGATIVE_INFINITY && r.top - labelBottom > BAND_GAP * r.h;
      const label = chunkTexts(r).slice(0, labelChunks).join(' ');
      const opens = band.labelLines === 0;
      if (apartFromLabel || !twoLetters.test(label) || (opens && sectionNumber.test(label)))
        band.labelLines = Number.POSITIVE_INFINITY;
      if (!opens && goesOn(lastLabel, label)) band.continued = true;
      lastLabel = label;
      labelBottom = r.bottom;
      band.labelLines++;
      band.lTop = Math.min(band.lTop, r.top);
      band.lBottom = Math.max(band.lBottom, r.bottom);
      band.labelRight = Math.max(band.labelRight, labelRight);
    }
    if (textRight > Number.NEGATIVE_INFINITY) {
      band.textLines++;
      band.rTop = Math.min(band.rTop, r.top);
      band.rBottom = Math.max(band.rBottom, r.bottom);
      band.textRight = Math.max(band.textRight, textRight);
    }
  }
  return out;
}

/**
 * A label that opens with a section's number ("4.1", "Section 4.1") is a manual's side head over
 * its section, which reads as the section's heading, not as a row.
 */
const sectionNumber = /^(?:(?:section|chapter|part|article|§)\s*)?\d+(?:\.\d+)+/i;

/**
 * Whether a label's line goes on from the line above: it opens a bracket's gloss ("Grade 1" over
 * "(low grade)"), or the line above leaves a bracket open, or ends in a hyphen, a dash, a slash or
 * a comma ("Jan 2019 -" over "Mar 2021"). Labels of one line each on rows of their own ("apple"
 * over "pear") do neither.
 */
function goesOn(above: string, line: string): boolean {
  if (line.startsWith('(') || /[-–—/,&]$/.test(above)) return true;
  let open = 0;
  for (const c of above) {
    if (c === '(') open++;
    else if (c === ')') open--;
  }
  return open > 0;
}

/**
 * Whether a band is a label beside its description, the one standing within the other's height:
 * a short label beside a long description, or a long label beside a short one.
 */
function pairs(b: Band): boolean {
  if (b.labelLines < 1 || b.labelLines > LABEL_LINES || b.textLines < 1) return false;
  const tol = 0.5 * (b.rows[0] as Row).h;
  const within = (top: number, bottom: number, outerTop: number, outerBottom: number): boolean =>
    top >= outerTop - tol && bottom <= outerBottom + tol;
  return within(b.lTop, b.lBottom, b.rTop, b.rBottom) || within(b.rTop, b.rBottom, b.lTop, b.lBottom);
}

/**
 * Whether the shorter of a band's two sides is set beside the middle of the other: lower than its
 * first line, its middle within a line of the other's.
 */
function centred(b: Band): boolean {
  const h = (b.rows[0] as Row).h;
  return Math.abs(b.lTop - b.rTop) >= 0.5 * h && Math.abs(b.lTop + b.lBottom - b.rTop - b.rBottom) <= 2 * h;
}

const leftEdge = (it: TextItem): number => it.x;

/**
 * The bands as a table of two columns, a row each. A cell's lines join at a blank: no rule gives
 * either column a width of its own (the labels' is their widest label's), so two lines of one
 * width are no word broken at a column's edge ("radiation" over "therapist").
 */
function tableOf(run: Band[], edge: number, items: TextItem[], vocab: () => Vocabulary): TableRegion {
  let labelRight = Number.NEGATIVE_INFINITY;
  let textRight = Number.NEGATIVE_INFINITY;
  let left = Number.POSITIVE_INFINITY;
  const indices: number[] = [];
  for (const b of run) {
    labelRight = Math.max(labelRight, b.labelRight);
    textRight = Math.max(textRight, b.textRight);
    for (const r of b.rows) {
      left = Math.min(left, (r.chunks[0] as [number, number])[0]);
      for (const i of r.items) indices.push(i);
    }
  }
  const ys = rowBounds(
    run.length,
    (k) => Math.min((run[k] as Band).lTop, (run[k] as Band).rTop),
    (k) => Math.max((run[k] as Band).lBottom, (run[k] as Band).rBottom),
  );
  const layout = slotLayout([left - 1, (labelRight + edge) / 2, textRight + 1], ys);
  const { table, bbox } = fillLayout(layout, items, indices, false, vocab, leftEdge, false);
  return { bbox, table, itemIndices: indices, ys, ruled: false, openHyphens: false };
}
