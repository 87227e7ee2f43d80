/**
 * 8-bit grayscale rasters: what the OCR task is handed. Tesseract binarizes grey anyway, and a grey
 * page is a quarter of its RGBA size to move between threads.
 */
export interface Gray {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * The one place rasters are made (the pixel loops' callers wrap what they are handed with it too):
 * code reading rasters sees one object shape, not one per literal or per thread message.
 */
export const gray = (width: number, height: number, data: Uint8Array): Gray => ({ width, height, data });

/** RGBA (or RGB with `channels: 3`) to grey with the usual luma weights; alpha is composited on white. */
export function toGray(width: number, height: number, px: ArrayLike<number>, channels = 4): Gray {
  return gray(width, height, grayPixels(width * height, px, channels));
}

/**
 * `toGray`'s pixel loop, alone in a function: a thread's first page is compiled in the middle of
 * this loop, and code after the loop that had not run yet would throw that compile away.
 */
function grayPixels(n: number, px: ArrayLike<number>, channels: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0, j = 0; i < n; i++, j += channels) {
    const r = px[j] as number;
    const g = channels >= 3 ? (px[j + 1] as number) : r;
    const b = channels >= 3 ? (px[j + 2] as number) : r;
    let v = (r * 77 + g * 150 + b * 29) >> 8;
    if (channels === 4 || channels === 2) {
      const a = px[j + channels - 1] as number;
      v = (v * a + 255 * (255 - a)) / 255;
    }
    out[i] = v;
  }
  return out;
}

/** Turns a raster clockwise by a multiple of 90°. Exact (no resampling), unlike a general rotation. */
export function rotate(img: Gray, degrees: 0 | 90 | 180 | 270): Gray {
  if (degrees === 0) return img;
  const { width: w, height: h, data } = img;
  const out = new Uint8Array(w * h);
  if (degrees === 180) {
    for (let i = 0, n = w * h; i < n; i++) out[i] = data[n - 1 - i] as number;
    return gray(w, h, out);
  }
  // 90: source (x, y) lands at (h-1-y, x) in a h×w image; 270: at (y, w-1-x).
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const v = data[row + x] as number;
      if (degrees === 90) out[x * h + (h - 1 - y)] = v;
      else out[(w - 1 - x) * h + y] = v;
    }
  }
  return gray(h, w, out);
}

/** A binary PGM: the one encoded form Leptonica reads without any codec library. */
export function toPgm(img: Gray): Uint8Array {
  const head = new TextEncoder().encode(`P5\n${img.width} ${img.height}\n255\n`);
  const out = new Uint8Array(head.length + img.data.length);
  out.set(head);
  out.set(img.data, head.length);
  return out;
}

/**
 * Light greys (cell shading, highlighter, paper tone) become white and the rest is stretched to
 * keep text contrast. Tesseract's global threshold otherwise puts a shaded table header on the
 * dark side, and the text on it disappears with it.
 */
export function dropShading(img: Gray, white = 200, keep = 120): void {
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) {
    lut[v] = v >= white ? 255 : v <= keep ? v : Math.round(keep + ((v - keep) * (255 - keep)) / (white - keep));
  }
  const { data } = img;
  for (let i = 0; i < data.length; i++) data[i] = lut[data[i] as number] as number;
}
