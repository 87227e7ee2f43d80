/**
 * A cheap guess, before any parsing, of how long a document will take, so that a folder spread over
 * several workers starts its longest documents first and does not end with one worker still busy on
 * a slow file while the others sit idle. Only the order of the guesses matters.
 *
 * What dominates is OCR: a scanned page takes seconds where a text page takes milliseconds. A scan
 * is a large raster image, and every image in a PDF is a stream object whose dictionary (with
 * /Width and /Height) sits in the file in plain bytes: streams can never be packed into object
 * streams. Counting large images therefore needs no PDF parser, only a pass over the bytes.
 */
import { extname } from 'node:path';
import { IMAGE_EXTENSIONS } from '@docmill/core';

/** Seconds one OCR'd page costs (300 dpi, tesseract's LSTM model) on one core; the scale of the guess. */
const OCR_PAGE = 2.5;
/** Seconds per megabyte of a text PDF (the layout work grows with the content, and content with size). */
const PDF_PER_MB = 1;
/** Seconds per megabyte of any other supported format. */
const OTHER_PER_MB = 0.5;
/** Below this many pixels an image is an illustration, logo or icon rather than a scanned page. */
const SCAN_PIXELS = 500_000;
/** A file larger than this is not scanned for images: its size alone already puts it first. */
export const MAX_SCAN_BYTES = 64 << 20;

const RASTER_EXTENSIONS = new Set(IMAGE_EXTENSIONS);

/**
 * Estimated seconds to parse a file named `name` of `size` bytes on one core. `bytes`, when given
 * (files up to 64 MB are worth reading), lets a PDF's scanned pages count.
 */
export function estimateCost(name: string, size: number, bytes?: Uint8Array): number {
  const ext = extname(name).toLowerCase();
  const mb = size / 1e6;
  if (RASTER_EXTENSIONS.has(ext)) return OCR_PAGE;
  if (ext !== '.pdf') return OTHER_PER_MB * mb;
  return PDF_PER_MB * mb + OCR_PAGE * (bytes && bytes.byteLength <= MAX_SCAN_BYTES ? largeImages(bytes) : 0);
}

const SUBTYPE_IMAGE = /\/Subtype\s*\/Image\b/g;

/** Images in a PDF's bytes of at least SCAN_PIXELS pixels: the pages OCR may have to read. */
export function largeImages(bytes: Uint8Array): number {
  // latin1 maps every byte to one character, so offsets in the string are offsets in the file.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let count = 0;
  for (const m of text.matchAll(SUBTYPE_IMAGE)) {
    // The image's dictionary runs from its "N G obj" to its "stream" keyword.
    const start = Math.max(text.lastIndexOf('obj', m.index), m.index - 4096);
    const end = text.indexOf('stream', m.index);
    const dict = text.slice(start, end < 0 ? m.index + 4096 : Math.min(end, m.index + 4096));
    // A size given by reference (`/Width 12 0 R`) is rare and left out rather than resolved.
    const w = /\/Width\s+(\d+)\b(?!\s+\d+\s+R)/.exec(dict);
    const h = /\/Height\s+(\d+)\b(?!\s+\d+\s+R)/.exec(dict);
    if (w && h && Number(w[1]) * Number(h[1]) >= SCAN_PIXELS) count++;
  }
  return count;
}

/**
 * The order to start `items` in: longest estimate first; equal estimates (and so any two files the
 * guess cannot tell apart) keep their given order, so the order is deterministic.
 */
export function longestFirst<T>(items: readonly T[], cost: (item: T) => number): T[] {
  const costs = items.map(cost);
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => (costs[b.i] as number) - (costs[a.i] as number) || a.i - b.i)
    .map((e) => e.item);
}
