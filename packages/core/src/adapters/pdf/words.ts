import { section } from '../../tree/build.ts';
import type { Section } from '../../tree/types.ts';
import { buildBlocks, docStats, type LaidOutPage } from './blocks.ts';
import { buildLines } from './lines.ts';
import { type PageModel, round2, type TableRegion, type TextItem } from './model.ts';
import { readingOrder } from './order.ts';
import { findTables } from './tables/index.ts';

/** A recognized word on a page, in points from the page's top-left (OCR output, or any other word source). */
export interface PlacedWord {
  text: string;
  x0: number;
  x1: number;
  /** Baseline of the word's line at the word. */
  base: number;
  /** Text height of the word's line (ascender to descender); drives paragraph and heading decisions. */
  size: number;
}

export interface WordPage {
  /** 1-based page number. */
  number: number;
  width: number;
  height: number;
  words: PlacedWord[];
  /**
   * Straight rulings of the page in points (a scan's table grid found in its pixels): horizontal
   * ones with y0 = y1, vertical ones with x0 = x1. They find ruled tables as a text PDF's
   * vector rulings do.
   */
  rules?: { x0: number; y0: number; x1: number; y1: number }[];
}

/**
 * Lays out pages of positioned words with the PDF adapter's own machinery: ruled tables from the
 * given rulings, borderless tables from column alignment, lines, reading order by columns, then paragraphs, lists and headings (heading
 * tiers from text height across all the pages given). One `page` section per page, as the PDF
 * adapter makes them, so OCR'd pages and text-layer pages render alike.
 */
export function layoutWordPages(pages: WordPage[]): Section[] {
  // Words carry no face: sizes alone tell a title, and a page of a table (a form) leaves little else.
  let tableChars = 0;
  const laid: LaidOutPage[] = pages.map((p) => {
    const items: TextItem[] = p.words.map((w) => ({
      // A trailing space: recognized words are whole, so the line builder must never glue two.
      str: `${w.text} `,
      x: w.x0,
      y: w.base - w.size,
      w: Math.max(0, w.x1 - w.x0),
      h: w.size,
      size: w.size,
      fontName: 'ocr',
      fontId: 'ocr',
      bold: false,
      italic: false,
      dir: 'ltr',
      hasEOL: false,
      rotated: false,
      href: undefined,
    }));
    const model: PageModel = {
      number: p.number,
      width: p.width,
      height: p.height,
      items,
      segments: p.rules?.length ? p.rules : null,
      rects: null,
    };
    let tables: TableRegion[] = [];
    try {
      tables = items.length ? findTables(model) : [];
    } catch {
      // Best effort, as for text-layer pages: the words still flow as paragraphs.
      tables = [];
    }
    const skip = new Set<number>();
    for (const t of tables)
      for (const i of t.itemIndices) {
        skip.add(i);
        // Less the blank each word was given.
        tableChars += (items[i] as TextItem).str.length - 1;
      }
    const lines = readingOrder(buildLines(items, skip.size ? skip : undefined), p.width);
    return { number: p.number, width: p.width, height: p.height, lines, tables, images: [] };
  });
  const stats = docStats(laid, new Set(), new Map(), undefined, tableChars);
  return laid.map((p) =>
    section('page', p.number, buildBlocks(p, stats), { width: round2(p.width), height: round2(p.height) }),
  );
}
