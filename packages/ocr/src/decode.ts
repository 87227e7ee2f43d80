import { DocmillError } from '@docmill/core';
import { convertIndexedToRgb, decode as decodePng } from 'fast-png';
import jpeg from 'jpeg-js';
import { GifReader } from 'omggif';
import UTIF from 'utif2';
import { type Gray, toGray } from './raster.ts';
import type { OcrTaskInput } from './task.ts';

/** One page of an image document, ready for the OCR task, with the resolution it declares (if any). */
export interface Frame {
  image: OcrTaskInput['image'];
  dpi: number | undefined;
}

const tooBig = (w: number, h: number, max: number) =>
  new DocmillError(
    400,
    'BAD_REQUEST',
    `The image is ${w}×${h} pixels, over the ${Math.round(max / 1e6)} megapixel limit for OCR.`,
  );
const unreadable = (kind: string, err?: unknown) =>
  new DocmillError(
    400,
    'BAD_REQUEST',
    `The ${kind} image could not be decoded${err instanceof Error ? ` (${err.message})` : ''}.`,
  );

/**
 * Decodes a raster image into the pages to OCR, in-process and without native code: PNG, JPEG,
 * GIF (first frame) and TIFF (every page) become grey rasters; BMP and WebP go to tesseract
 * encoded, as it reads them itself. Sizes are checked from headers before any pixel is allocated.
 */
export function decodeImage(bytes: Uint8Array, mime: string, maxPixels: number): Frame[] {
  const check = (w: number, h: number) => {
    if (!(w > 0 && h > 0)) throw unreadable(mime);
    if (w * h > maxPixels) throw tooBig(w, h, maxPixels);
  };
  switch (mime) {
    case 'image/png': {
      if (bytes.length < 24) throw unreadable('PNG');
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      check(dv.getUint32(16), dv.getUint32(20));
      let png: ReturnType<typeof decodePng>;
      try {
        png = decodePng(bytes);
      } catch (err) {
        throw unreadable('PNG', err);
      }
      const dpi = png.resolution && png.resolution.unit === 1 ? Math.round(png.resolution.x * 0.0254) : undefined;
      return [{ image: { kind: 'gray', ...pngGray(png) }, dpi }];
    }
    case 'image/jpeg': {
      let img: { width: number; height: number; data: Uint8Array };
      try {
        img = jpeg.decode(bytes, {
          useTArray: true,
          formatAsRGBA: true,
          maxResolutionInMP: maxPixels / 1e6,
          maxMemoryUsageInMB: Math.ceil((maxPixels * 6) / 1e6),
        });
      } catch (err) {
        if (err instanceof Error && /maxResolutionInMP/.test(err.message)) throw tooBig(0, 0, maxPixels);
        throw unreadable('JPEG', err);
      }
      return [{ image: { kind: 'gray', ...toGray(img.width, img.height, img.data) }, dpi: jfifDpi(bytes) }];
    }
    case 'image/gif':
      return [{ image: { kind: 'gray', ...gifGray(bytes, check) }, dpi: undefined }];
    case 'image/tiff':
      return tiffFrames(bytes, check);
    case 'image/bmp': {
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const w = dv.getInt32(18, true);
      const h = Math.abs(dv.getInt32(22, true));
      check(w, h);
      return [{ image: { kind: 'encoded', width: w, height: h, bytes }, dpi: undefined }];
    }
    case 'image/webp': {
      const [w, h] = webpSize(bytes);
      check(w, h);
      return [{ image: { kind: 'encoded', width: w, height: h, bytes }, dpi: undefined }];
    }
    default:
      throw new DocmillError(400, 'UNSUPPORTED_FILE_TYPE', `Images of type ${mime} cannot be OCR'd.`);
  }
}

function pngGray(png: ReturnType<typeof decodePng>): Gray {
  const { width, height } = png;
  if (png.palette) {
    const rgb = convertIndexedToRgb(png);
    return toGray(width, height, rgb, rgb.length / (width * height));
  }
  const ch = png.channels;
  let data: ArrayLike<number> = png.data;
  if (png.depth === 16) data = Uint8Array.from(png.data as Uint16Array, (v) => v >> 8);
  else if (png.depth < 8) data = unpackBits(png.data as Uint8Array, width, height, png.depth);
  return toGray(width, height, data, ch);
}

/** Grey PNGs of 1, 2 or 4 bits come packed, rows padded to whole bytes; scale each sample to 0–255. */
function unpackBits(src: Uint8Array, width: number, height: number, depth: number): Uint8Array {
  const out = new Uint8Array(width * height);
  const rowBytes = Math.ceil((width * depth) / 8);
  const max = (1 << depth) - 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const bit = x * depth;
      const byte = src[y * rowBytes + (bit >> 3)] as number;
      const v = (byte >> (8 - depth - (bit & 7))) & max;
      out[y * width + x] = Math.round((v * 255) / max);
    }
  }
  return out;
}

function gifGray(bytes: Uint8Array, check: (w: number, h: number) => void): Gray {
  let reader: GifReader;
  try {
    reader = new GifReader(bytes);
  } catch (err) {
    throw unreadable('GIF', err);
  }
  check(reader.width, reader.height);
  const rgba = new Uint8Array(reader.width * reader.height * 4).fill(255);
  try {
    reader.decodeAndBlitFrameRGBA(0, rgba);
  } catch (err) {
    throw unreadable('GIF', err);
  }
  return toGray(reader.width, reader.height, rgba);
}

function tiffFrames(bytes: Uint8Array, check: (w: number, h: number) => void): Frame[] {
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let ifds: UTIF.IFD[];
  try {
    ifds = UTIF.decode(buf);
  } catch (err) {
    throw unreadable('TIFF', err);
  }
  const frames: Frame[] = [];
  for (const ifd of ifds) {
    const w = Number((ifd.t256 as number[] | undefined)?.[0] ?? 0);
    const h = Number((ifd.t257 as number[] | undefined)?.[0] ?? 0);
    // Reduced-resolution copies (thumbnails, NewSubfileType bit 0) are not pages.
    const subfile = Number((ifd.t254 as number[] | undefined)?.[0] ?? 0);
    if (subfile & 1) continue;
    check(w, h);
    try {
      UTIF.decodeImage(buf, ifd);
    } catch (err) {
      throw unreadable('TIFF', err);
    }
    const rgba = UTIF.toRGBA8(ifd);
    const res = Number((ifd.t282 as number[] | undefined)?.[0] ?? 0);
    const unit = Number((ifd.t296 as number[] | undefined)?.[0] ?? 2);
    frames.push({
      image: { kind: 'gray', ...toGray(ifd.width, ifd.height, rgba) },
      dpi: res > 0 ? Math.round(unit === 3 ? res * 2.54 : res) : undefined,
    });
  }
  if (!frames.length) throw unreadable('TIFF');
  return frames;
}

/** JFIF APP0 density, when it is given in dots per inch or per cm. */
function jfifDpi(b: Uint8Array): number | undefined {
  if (b.length < 18 || b[2] !== 0xff || b[3] !== 0xe0) return undefined;
  if (String.fromCharCode(b[6] ?? 0, b[7] ?? 0, b[8] ?? 0, b[9] ?? 0) !== 'JFIF') return undefined;
  const unit = b[13];
  const x = ((b[14] ?? 0) << 8) | (b[15] ?? 0);
  if (!x || (unit !== 1 && unit !== 2)) return undefined;
  return unit === 2 ? Math.round(x * 2.54) : x;
}

function webpSize(b: Uint8Array): [number, number] {
  const tag = String.fromCharCode(b[12] ?? 0, b[13] ?? 0, b[14] ?? 0, b[15] ?? 0);
  const u = (i: number) => b[i] ?? 0;
  if (tag === 'VP8X') return [1 + (u(24) | (u(25) << 8) | (u(26) << 16)), 1 + (u(27) | (u(28) << 8) | (u(29) << 16))];
  if (tag === 'VP8L') {
    const bits = u(21) | (u(22) << 8) | (u(23) << 16) | (u(24) << 24);
    return [1 + (bits & 0x3fff), 1 + ((bits >>> 14) & 0x3fff)];
  }
  if (tag === 'VP8 ') return [(u(26) | (u(27) << 8)) & 0x3fff, (u(28) | (u(29) << 8)) & 0x3fff];
  return [0, 0];
}
