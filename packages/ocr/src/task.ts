import type { TaskContext } from '@docmill/workers';
import type { OcrAssets } from './ocr-assets.ts';
import { dropShading, type Gray, rotate, toPgm } from './raster.ts';
import { type Rule, removeRules, rulesOf, type Strokes } from './rules.ts';
import { type Engines, engines } from './tesseract.ts';

/** Input of the "ocr" pool task: one page. */
export interface OcrTaskInput {
  /** Grey pixels, or an encoded image tesseract reads itself (BMP, WebP) with its size. */
  image: ({ kind: 'gray' } & Gray) | { kind: 'encoded'; width: number; height: number; bytes: Uint8Array };
  /** Resolution the page was rendered at (tesseract uses it for its size heuristics). */
  dpi: number;
  languages: string[];
  /** Where the models (and, in browsers, tesseract.js's worker and core) are. */
  assets: OcrAssets;
  /** Find pages turned by 90/180/270° and read them upright. */
  orientation: boolean;
  /**
   * No language was asked for: a page the recognizer doubts gets a script detection, and a page in
   * one of these scripts (OSD's names) is read again with the installed language given for it.
   */
  scripts?: Record<string, { language: string; assets: OcrAssets }>;
}

export interface OcrWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** 0–100, tesseract's own. */
  confidence: number;
}

export interface OcrLine {
  words: OcrWord[];
  /** Baseline height at the line's left and right ends. */
  baseLeft: number;
  baseRight: number;
  /** Text height of the row (ascender to descender), pixels. */
  size: number;
}

export interface OcrPage {
  /** Size of the upright page the coordinates refer to, pixels. */
  width: number;
  height: number;
  /** Clockwise turn applied to read the page upright. */
  rotation: 0 | 90 | 180 | 270;
  /** Mean word confidence, 0–100. */
  confidence: number;
  lines: OcrLine[];
  /** Rulings whitened out before recognition (table grids, underlines, frames), pixels. */
  rules: Rule[];
  /** The script OSD found, when it ran and was sure (`Latin`, `Cyrillic`, `Han`, …). */
  script?: string;
  /** The language the page was read with instead of the asked ones, picked from its script. */
  language?: string;
}

/**
 * Below this mean word confidence a page may be sideways or upside down, and orientation detection
 * is worth its cost (about half a recognition); upright pages, the common case, never pay it.
 */
const DOUBT = 70;
/** Mean word confidence under which a recognized line is dropped as noise. */
const JUNK = 40;

/** Task "ocr": recognizes one page, upright. Runs in a pool worker (or in-thread without one). */
export async function run(input: OcrTaskInput, ctx: TaskContext): Promise<OcrPage> {
  const tess = engines(input.languages, input.assets);
  const img = input.image;
  let found: Strokes | undefined;
  if (img.kind === 'gray') {
    const dpi = input.dpi || 150;
    dropShading(img);
    // A third of an inch: longer than any glyph stroke at any text size met in documents. Strokes
    // thicker than 3 points are bars and filled boxes, not rulings.
    found = removeRules(img, Math.max(40, Math.round(dpi / 3)), Math.max(2, dpi / 24));
  }
  const total = input.orientation || input.scripts ? 2 : 1;
  let best = await recognize(tess, img, 0, input.dpi, found);
  ctx.onProgress?.({ stage: 'ocr', done: 1, total, unit: 'parts' });
  // Judged on every word read, before noise is dropped: a sideways page, or one in a script the
  // model does not know, is mostly noise.
  if ((input.orientation || input.scripts) && best.raw < DOUBT) {
    // Orientation and script are improvements, never a reason to fail: without a usable OSD model
    // (a browser build given no path to it) the first reading stands.
    const osd = await detectOsd(tess, img, input.dpi).catch(() => undefined);
    const turn = input.orientation ? (osd?.turn ?? 0) : 0;
    if (turn) {
      const again = await recognize(tess, img, turn, input.dpi, found);
      if (again.raw > best.raw) best = again;
    }
    if (osd?.script && input.scripts) {
      best.page.script = osd.script;
      const other = input.scripts[osd.script];
      if (other) {
        const again = await recognize(engines([other.language], other.assets), img, turn, input.dpi, found);
        if (again.raw > best.raw)
          best = { ...again, page: { ...again.page, script: osd.script, language: other.language } };
      }
    }
  }
  ctx.onProgress?.({ stage: 'ocr', done: total, total, unit: 'parts' });
  return best.page;
}

type Turn = 0 | 90 | 180 | 270;
/** tesseract.js types name Buffer; it reads any Uint8Array. */
type ImageBytes = Buffer;

/** Below this, OSD's script guess is not taken (its confidence has no fixed scale; 1–2 is weak). */
const SCRIPT_SURE = 2;

/** Orientation and script detection: the turn that brings the page upright, and its script when sure. */
async function detectOsd(
  tess: Engines,
  img: OcrTaskInput['image'],
  dpi: number,
): Promise<{ turn: Turn; script?: string }> {
  const osd = await tess.osd();
  await osd.setParameters({ user_defined_dpi: String(Math.round(dpi)) });
  const r = await osd.detect(encode(img, 0, dpi).bytes as ImageBytes);
  const deg = r.data.orientation_degrees;
  const conf = r.data.orientation_confidence ?? 0;
  const script = r.data.script && (r.data.script_confidence ?? 0) >= SCRIPT_SURE ? r.data.script : undefined;
  // OSD reports the clockwise turn that brings the text upright (checked on docling's rotated scans).
  const turn = !deg || conf < 0.5 ? 0 : ((deg % 360) as Turn);
  return script ? { turn, script } : { turn };
}

function encode(img: OcrTaskInput['image'], turn: Turn, dpi: number) {
  if (img.kind === 'encoded') {
    // Encoded images can be turned only by tesseract itself, which keeps the frame: half turns only.
    return { bytes: img.bytes, width: img.width, height: img.height, radians: turn === 180 ? Math.PI : 0, dpi };
  }
  const up = rotate(img, turn);
  return { bytes: toPgm(up), width: up.width, height: up.height, radians: 0, dpi };
}

/** A recognized page and the mean confidence of every word tesseract read on it, noise included. */
interface Pass {
  page: OcrPage;
  raw: number;
}

async function recognize(
  tess: Engines,
  img: OcrTaskInput['image'],
  turn: Turn,
  dpi: number,
  found: Strokes | undefined,
): Promise<Pass> {
  if (turn && img.kind === 'encoded' && turn !== 180) return { page: { ...emptyPage(img), rotation: turn }, raw: 0 };
  const e = encode(img, turn, dpi);
  const worker = await tess.reader();
  // 0 lets tesseract estimate the resolution from the text itself (images that declare none).
  await worker.setParameters({ user_defined_dpi: String(Math.round(dpi)) });
  const r = await worker.recognize(e.bytes as ImageBytes, e.radians ? { rotateRadians: e.radians } : {}, {
    blocks: true,
    text: false,
  });
  const lines: OcrLine[] = [];
  let sum = 0;
  let count = 0;
  let rawSum = 0;
  let rawCount = 0;
  for (const b of r.data.blocks ?? []) {
    for (const p of b.paragraphs) {
      for (const l of p.lines) {
        const words: OcrWord[] = [];
        for (const w of l.words) {
          const text = w.text.trim();
          if (text) {
            rawSum += w.confidence;
            rawCount++;
          }
          // One or two doubtful characters are speckle or a rule's remains far more often than a word.
          if (!text || (text.length <= 2 && w.confidence < 60)) continue;
          words.push({ text, x0: w.bbox.x0, y0: w.bbox.y0, x1: w.bbox.x1, y1: w.bbox.y1, confidence: w.confidence });
          sum += w.confidence;
          count++;
        }
        if (!words.length) continue;
        // Lines tesseract itself doubts are mostly pictures, stamps and speckle read as letters.
        const mean = words.reduce((n, w) => n + w.confidence, 0) / words.length;
        if (mean < JUNK) {
          for (const w of words) {
            sum -= w.confidence;
            count--;
          }
          continue;
        }
        const { x0, y0, x1, y1 } = l.baseline;
        const at = (x: number) => (x1 === x0 ? y0 : y0 + ((y1 - y0) * (x - x0)) / (x1 - x0));
        const size = l.rowAttributes.rowHeight || l.bbox.y1 - l.bbox.y0;
        lines.push({ words, baseLeft: at(l.bbox.x0), baseRight: at(l.bbox.x1), size });
      }
    }
  }
  return {
    page: {
      width: e.width,
      height: e.height,
      rotation: turn,
      confidence: count ? sum / count : 0,
      lines,
      rules: found ? rulesOf(found, img.width, img.height, turn) : [],
    },
    raw: rawCount ? rawSum / rawCount : 0,
  };
}

function emptyPage(img: { width: number; height: number }): OcrPage {
  return { width: img.width, height: img.height, rotation: 0, confidence: 0, lines: [], rules: [] };
}
