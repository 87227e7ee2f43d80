import type { OcrPage } from './task.ts';

/** Maps a point of the recognized page (pixels) to where it would be on the page scanned straight. */
export type Level = (x: number, y: number) => [number, number];

/** Below this the page counts as straight: renders of text PDFs, careful scans. */
const STRAIGHT = (0.15 * Math.PI) / 180;
/** Beyond this the baselines are not a scan's tilt (rotated text boxes, curved pages). */
const TILTED = (5 * Math.PI) / 180;

/**
 * The page's tilt from tesseract's own baselines: the median slope of lines long enough to
 * measure, in radians (positive: lines fall to the right). A scan fed in a degree or two askew
 * moves a wide table's right-hand cells a row down and smears its columns; layout expects level
 * rows, as text PDFs have them.
 */
export function skewOf(page: OcrPage): number {
  const slopes: number[] = [];
  for (const l of page.lines) {
    const first = l.words[0];
    const last = l.words[l.words.length - 1];
    if (!first || !last || l.words.length < 3) continue;
    const span = last.x1 - first.x0;
    if (span < page.width * 0.15) continue;
    slopes.push(Math.atan2(l.baseRight - l.baseLeft, span));
  }
  if (slopes.length < 3) return 0;
  slopes.sort((a, b) => a - b);
  const median = slopes[slopes.length >> 1] as number;
  return Math.abs(median) < STRAIGHT || Math.abs(median) > TILTED ? 0 : median;
}

/** Turns points about the page centre by −`angle`, levelling lines that fall by `angle`. */
export function leveller(page: Pick<OcrPage, 'width' | 'height'>, angle: number): Level {
  if (!angle) return (x, y) => [x, y];
  const cx = page.width / 2;
  const cy = page.height / 2;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return (x, y) => {
    const dx = x - cx;
    const dy = y - cy;
    return [cx + dx * cos + dy * sin, cy - dx * sin + dy * cos];
  };
}
