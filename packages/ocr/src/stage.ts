import {
  type BBox,
  type Block,
  layoutWordPages,
  type PageClass,
  type PlacedWord,
  type Root,
  type Section,
  type Stage,
  type StageContext,
  type WordPage,
} from '@docmill/core';
import type { Pool, PoolOptions, ProgressCallback } from '@docmill/workers';
import { decodeImage, type Frame } from './decode.ts';
import { guessLatinLanguage, languageName, packHint, SCRIPT_LANGUAGES, scriptHint } from './languages.ts';
import type { OcrAssets } from './ocr-assets.ts';
import type { Gray } from './raster.ts';
import { openRenderer, type PageRenderer } from './render.ts';
import { type Level, leveller, skewOf } from './skew.ts';
import type { OcrPage, OcrTaskInput } from './task.ts';
import { holdEngines } from './tesseract.ts';

export interface OcrConfig {
  /** Pool to run OCR tasks in (the "ocr" task is registered on it). Default: the stage's own. */
  pool?: Pool;
  /** Size of the stage's own pool: default available cores − 1; 0 runs OCR in-thread. */
  workers?: number;
  /** Resolution PDF pages are rendered at for OCR. Default 300. */
  dpi?: number;
  /**
   * Tesseract language codes read together (`['fra', 'eng']`), unless a parse asks for others with
   * `ocr.languages`. Default ['eng'] (bundled), with script detection: a page in a non-Latin
   * script is read with an installed pack for it. Node: each other language from its installed
   * `@tesseract.js-data/<lang>` package.
   */
  languages?: string[];
  /** Directory (Node) or URL holding `<lang>.traineddata.gz` for every language, instead of the packages. */
  langPath?: string;
  /**
   * Browsers: URL of the folder serving tesseract.js's worker, its core and the eng/osd models
   * (the files `ocrAssetFiles()` from `@docmill/ocr/assets` lists). Default `./tesseract/`,
   * relative to the page. Ignored in Node, which reads them from node_modules.
   */
  assets?: string | URL;
  /** Detect pages turned by 90/180/270° and read them upright. Default true. */
  orientation?: boolean;
  /** Largest image (or rendered page) OCR accepts, in pixels. Default 60 million. */
  maxPixels?: number;
  /** How PDF pages become pixels (swap for the PDF backend's renderer). */
  openRenderer?: (bytes: Uint8Array) => Promise<PageRenderer>;
}

/** What differs between the Node and the browser entry. */
export interface OcrPlatform {
  /** Id or URL of the "ocr" task for the pool. */
  taskUrl: string;
  createPool(options: PoolOptions): Pool;
  /** Where the models of `languages` are; throws a 400 naming the package when one is missing. */
  assets(config: OcrConfig, languages: readonly string[]): OcrAssets;
  /** Installed languages for non-Latin scripts (OSD's names), for pages read without a language asked. */
  scripts?(config: OcrConfig): OcrTaskInput['scripts'];
}

/** A page to OCR: where its pixels come from and which tree section receives the result. */
interface Target {
  number: number;
  frame: () => Promise<Frame | null>;
}

/**
 * The OCR stage. PDF: `fast` never OCRs, `auto` OCRs exactly the pages whose text layer is
 * missing or garbled, `ocr` every page; pages are rendered at `dpi` and replaced by what OCR
 * reads. Images (the `image` parser): every frame is a page. Recognition runs in pool workers,
 * a page per task; layout (lines, paragraphs, headings, borderless tables) is the PDF adapter's.
 */
export function makeOcrStage(config: OcrConfig, platform: OcrPlatform): Stage & { close(): Promise<void> } {
  const { createPool } = platform;
  const taskUrl = platform.taskUrl;
  const dpi = config.dpi ?? 300;
  const languages = config.languages ?? ['eng'];
  const assetsFor = memo((langs: readonly string[]) => platform.assets(config, langs));
  const scripts = memo(() => platform.scripts?.(config));
  const maxPixels = config.maxPixels ?? 60e6;
  const open = config.openRenderer ?? openRenderer;
  let pool = config.pool;
  pool?.register('ocr', taskUrl);
  const ownPool = !pool;
  let release: (() => Promise<void>) | undefined;
  const poolOf = (): Pool => {
    if (!pool) {
      pool = createPool({
        ...(config.workers !== undefined ? { size: config.workers } : {}),
        tasks: { ocr: taskUrl },
      });
      if (pool.size === 0) release = holdEngines();
    }
    return pool;
  };

  function pagesToRead(ctx: StageContext, tree: Root): number[] {
    const info = ctx.adapterOutput.pageInfo ?? {};
    const mode = ctx.options.pdf.mode;
    const numbers = pageSections(tree).map((s) => s.number);
    if (mode === 'ocr') return numbers;
    return numbers.filter((n) => info[n] && info[n].text !== 'text');
  }

  return {
    name: 'ocr',
    ocr: true,
    validate(options) {
      // A language pack that is not installed is a 400 before any work.
      if (options.ocrLanguages) assetsFor(options.ocrLanguages);
    },
    applies(ctx) {
      if (ctx.kind === 'image') return true;
      return ctx.kind === 'pdf' && ctx.options.pdf.mode !== 'fast' && Boolean(ctx.adapterOutput.pageInfo);
    },
    async run(tree, ctx) {
      const progress = ctx.onProgress;
      let targets: Target[];
      let renderer: PageRenderer | undefined;
      if (ctx.kind === 'image') {
        const frames = decodeImage(ctx.bytes, String(tree.metadata.contentType ?? ''), maxPixels);
        targets = frames.map((f, i) => ({ number: i + 1, frame: async () => f }));
      } else {
        const numbers = pagesToRead(ctx, tree);
        if (!numbers.length) {
          tree.metadata.ocrPages = 0;
          return tree;
        }
        renderer = await open(ctx.bytes);
        const r = renderer;
        const sizes = new Map(pageSections(tree).map((s) => [s.number, [s.width ?? 0, s.height ?? 0] as const]));
        targets = numbers.map((n) => ({
          number: n,
          frame: async () => {
            const img = await r.render(n, dpi);
            // The backend may render huge pages at less than asked: the true scale is pixels per point.
            const actual = renderedDpi(img, sizes.get(n)) ?? dpi;
            return isBlank(img) ? null : { image: { kind: 'gray', ...img }, dpi: actual };
          },
        }));
      }
      try {
        const asked = ctx.options.ocrLanguages ?? config.languages;
        const langs = asked ?? languages;
        const auto = asked ? undefined : scripts();
        const results = await recognizeAll(poolOf(), taskUrl, targets, ctx, progress, {
          languages: langs,
          assets: assetsFor(langs),
          orientation: config.orientation ?? true,
          ...(auto ? { scripts: auto } : {}),
        });
        languageWarnings(results, langs, ctx.warn);
        return merge(tree, results, ctx.kind === 'image', ctx.adapterOutput.pageInfo ?? {});
      } finally {
        await renderer?.close();
      }
    },
    async close() {
      if (ownPool) await pool?.close();
      pool = ownPool ? undefined : pool;
      await release?.();
      release = undefined;
    },
  };
}

/** Remembers a function's answer per argument list (language lists are short and few). */
function memo<A extends unknown[], R>(f: (...args: A) => R): (...args: A) => R {
  const seen = new Map<string, R>();
  return (...args) => {
    const key = JSON.stringify(args);
    if (!seen.has(key)) seen.set(key, f(...args));
    return seen.get(key) as R;
  };
}

/** "Page 2 looks" / "Pages 1, 3 look". */
const pagesVerb = (pages: number[], one: string, many: string) =>
  pages.length > 1 ? `Pages ${pages.join(', ')} ${many}` : `Page ${pages[0]} ${one}`;

/**
 * Says when the models used were not the right ones: pages in a script no installed pack reads,
 * pages read with a pack picked from their script, and Latin-script text that reads as a language
 * other than the ones used (its accents and words are then often misread).
 */
export function languageWarnings(
  results: readonly Pick<Recognized, 'number' | 'page'>[],
  used: readonly string[],
  warn: (m: string) => void,
): void {
  const missing = new Map<string, number[]>();
  const picked = new Map<string, number[]>();
  const words: string[] = [];
  for (const r of results) {
    const p = r.page;
    if (!p) continue;
    if (p.language) picked.set(p.language, [...(picked.get(p.language) ?? []), r.number]);
    else if (p.script && p.script !== 'Latin') {
      const langs = SCRIPT_LANGUAGES[p.script];
      if (langs && !langs.some((l) => used.includes(l)))
        missing.set(p.script, [...(missing.get(p.script) ?? []), r.number]);
    }
    if (!p.script || p.script === 'Latin') for (const l of p.lines) for (const w of l.words) words.push(w.text);
  }
  for (const [script, pages] of missing)
    warn(
      `${pagesVerb(pages, 'looks', 'look')} like ${script} script, which the OCR language${used.length > 1 ? 's' : ''} used (${used.join('+')}) cannot read: ${scriptHint(SCRIPT_LANGUAGES[script] ?? [])}.`,
    );
  for (const [lang, pages] of picked)
    warn(
      `${pagesVerb(pages, 'was', 'were')} read with the installed ${lang} model, picked from ${pages.length > 1 ? 'their' : 'its'} script.`,
    );
  const guess = guessLatinLanguage(words);
  if (guess && !used.includes(guess))
    warn(
      `The scanned text looks ${languageName(guess)} but was read with ${used.map(languageName).join('+')} only, which misreads its accents and words: ${packHint(guess)}.`,
    );
}

interface Recognized {
  number: number;
  page: OcrPage | null;
  /** Points per pixel: from the render resolution, or (images) from the text size. */
  scale: number;
}

/**
 * Renders (or decodes) pages one at a time while earlier pages are being recognized, keeping at
 * most pool-size + 1 rasters alive here (+ 1 waiting for a reader when lending), so memory stays
 * bounded on long scans. Inside a pooled engine's worker (`ctx.offload`), a page that would wait
 * for this thread (or, with workers of the stage's own, for them) goes to an idle worker of the
 * pool instead when there is one, so one long scan is read by the whole pool.
 */
async function recognizeAll(
  pool: Pool,
  taskUrl: string,
  targets: Target[],
  ctx: StageContext,
  progress: ProgressCallback | undefined,
  opts: Pick<OcrTaskInput, 'languages' | 'assets' | 'orientation' | 'scripts'>,
): Promise<Recognized[]> {
  const out: Recognized[] = [];
  const local = new Set<Promise<void>>();
  const lent = new Set<Promise<void>>();
  // Pages this thread reads at once: one in-thread, else one per worker of the stage's own pool.
  const own = Math.max(1, pool.size);
  const limit = own + 1;
  let done = 0;
  let failure: unknown;
  const track = (set: Set<Promise<void>>, number: number, dpi: number | undefined, page: Promise<OcrPage>) => {
    const job: Promise<void> = page
      .then((p) => {
        out.push({ number, page: p, scale: scaleOf(p, dpi) });
        progress?.({ stage: 'ocr', done: ++done, total: targets.length, unit: 'pages' });
      })
      .catch((err: unknown) => {
        failure ??= err;
      })
      .finally(() => set.delete(job));
    set.add(job);
  };
  /** Reads a page with this stage's own pool (in-thread or its workers). */
  const readHere = (input: OcrTaskInput, transfer: Transferable[] = []) =>
    pool.run<OcrPage>('ocr', input, { signal: ctx.signal, transfer }).then((r) => r.value);
  // A worker that could not read a lent page after all (it cannot load the OCR task, or it died)
  // leaves it to this thread, whose copy of the pixels was never moved.
  const lentPage = (result: Promise<OcrPage>, input: OcrTaskInput) =>
    result.catch((err: unknown) => {
      if (ctx.signal.aborted) throw err;
      return readHere(input);
    });
  try {
    for (const t of targets) {
      // Without lending, the next page is not even rendered until this thread has room for it.
      while (!ctx.offload && local.size >= limit) await Promise.race(local);
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (failure) break;
      const frame = await t.frame();
      if (!frame) {
        out.push({ number: t.number, page: null, scale: 1 });
        progress?.({ stage: 'ocr', done: ++done, total: targets.length, unit: 'pages' });
        continue;
      }
      const input: OcrTaskInput = { ...opts, image: frame.image, dpi: frame.dpi ?? 0 };
      while (!failure) {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        // This stage's own readers come first; when all are reading, an idle worker of the caller's
        // pool; then one page queued here; else wait until a page ends here or in a lent worker.
        if (local.size >= own && ctx.offload) {
          const elsewhere = await ctx.offload(taskUrl, input);
          if (elsewhere) {
            track(lent, t.number, frame.dpi, lentPage(elsewhere.result as Promise<OcrPage>, input));
            break;
          }
        }
        if (local.size < limit) {
          const transfer = frame.image.kind === 'gray' ? [frame.image.data.buffer as ArrayBuffer] : [];
          track(local, t.number, frame.dpi, readHere(input, transfer));
          break;
        }
        await Promise.race([...local, ...lent]);
      }
    }
  } finally {
    // Also when a page fails to render or the request is aborted: the pages still being read end
    // (an abort cuts them short) before the stage does, so none reports progress after its
    // request has ended.
    await Promise.all([...local, ...lent]);
  }
  if (failure) throw failure;
  return out.sort((a, b) => a.number - b.number);
}

/**
 * PDF pages come in points (72 per inch of the render). Images rarely declare a true resolution,
 * so their pixels are scaled to make the median text line 10 points: the layout rules were tuned
 * on documents measured in points.
 */
function scaleOf(page: OcrPage, dpi: number | undefined): number {
  if (dpi && dpi > 0) return 72 / dpi;
  const sizes = page.lines.map((l) => l.size).sort((a, b) => a - b);
  const median = sizes[sizes.length >> 1];
  return median ? 10 / median : 72 / 300;
}

/**
 * Tesseract's row heights wobble by a tenth or more with the letters a line happens to hold
 * (ascenders, descenders, capitals), enough to pass for a heading tier. Heights within 15% of the
 * document's body height are snapped to it; only clearly larger text keeps its own size.
 */
function bodySize(pages: OcrPage[]): number {
  const sizes: number[] = [];
  for (const p of pages) for (const l of p.lines) for (let i = 0; i < l.words.length; i++) sizes.push(l.size);
  sizes.sort((a, b) => a - b);
  return sizes[sizes.length >> 1] ?? 0;
}

function placed(page: OcrPage, scale: number, body: number, level: Level): PlacedWord[] {
  const words: PlacedWord[] = [];
  for (const l of page.lines) {
    const size = body && Math.abs(l.size / body - 1) < 0.15 ? body : l.size;
    const first = l.words[0];
    const last = l.words[l.words.length - 1];
    const span = first && last ? last.x1 - first.x0 : 0;
    for (const w of l.words) {
      const mid = (w.x0 + w.x1) / 2;
      const t = span > 0 && first ? (mid - first.x0) / span : 0;
      const [x, base] = level(mid, l.baseLeft + (l.baseRight - l.baseLeft) * t);
      const half = (w.x1 - w.x0) / 2;
      words.push({
        text: w.text,
        x0: (x - half) * scale,
        x1: (x + half) * scale,
        base: base * scale,
        size: size * scale,
      });
    }
  }
  return words;
}

/** The page's rulings in points, levelled with its words: each keeps its length and direction. */
function ruled(page: OcrPage, scale: number, level: Level): WordPage['rules'] {
  return page.rules.map((r) => {
    const [x, y] = level((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2);
    const hx = (r.x1 - r.x0) / 2;
    const hy = (r.y1 - r.y0) / 2;
    return { x0: (x - hx) * scale, y0: (y - hy) * scale, x1: (x + hx) * scale, y1: (y + hy) * scale };
  });
}

/**
 * Puts OCR'd pages into the tree: images get their sections; PDF pages have their content replaced,
 * the values of their form fields (`info`: no render shows them) laid out with the words read.
 */
function merge(tree: Root, results: Recognized[], image: boolean, info: Record<number, PageClass>): Root {
  const read = results.filter((r): r is Recognized & { page: OcrPage } => r.page !== null);
  const body = bodySize(read.map((r) => r.page));
  const levels = read.map((r) => leveller(r.page, skewOf(r.page)));
  const sections = layoutWordPages(
    read.map((r, i) => ({
      number: r.number,
      width: r.page.width * r.scale,
      height: r.page.height * r.scale,
      words: withFields(
        placed(r.page, r.scale, body, levels[i] as Level),
        fieldsAt(info[r.number], r.scale, levels[i] as Level, body * r.scale),
      ),
      rules: ruled(r.page, r.scale, levels[i] as Level),
    })),
  );
  const byNumber = new Map<number, { section: Section; r: Recognized & { page: OcrPage } }>();
  sections.forEach((s, i) => {
    const r = read[i] as Recognized & { page: OcrPage };
    markConfidence(s.children, r.page, r.scale, levels[i] as Level);
    byNumber.set(s.number ?? 0, { section: s, r });
  });
  if (image) {
    tree.children = results.map(
      (r) => byNumber.get(r.number)?.section ?? { type: 'section', kind: 'page', number: r.number, children: [] },
    );
    tree.metadata.numPages = results.length;
  } else {
    for (const s of pageSections(tree)) {
      const got = byNumber.get(s.number ?? 0);
      if (!got) continue;
      // The scan itself is no content of its own once read; smaller pictures on the page stay.
      const area = (s.width ?? 0) * (s.height ?? 0);
      const kept = s.children.filter((b) => b.type === 'image' && bboxArea(b.source?.bbox) < area * 0.5);
      s.children = [...got.section.children, ...kept];
    }
  }
  tree.metadata.ocrPages = read.length;
  if (read.length) {
    const mean = read.reduce((n, r) => n + r.page.confidence, 0) / read.length;
    tree.metadata.ocrConfidence = Math.round(mean * 10) / 1000;
  }
  if (!tree.metadata.title) {
    const h = tree.children.flatMap((s) => (s.type === 'section' ? s.children : [s])).find((b) => b.type === 'heading');
    if (h && h.type === 'heading') {
      const t = h.children
        .map((c) => (c.type === 'text' ? c.value : ''))
        .join('')
        .trim();
      if (t) tree.metadata.title = t;
    }
  }
  return tree;
}

/**
 * Pixels per inch of a page's render (`img`, the page as shown) whose section measures `size`
 * points: the section's width, or its height where the adapter reads the page turned (a page
 * shown a quarter turned, its text upright in its own frame) and the render's sides are swapped.
 */
function renderedDpi(
  img: { width: number; height: number },
  size: readonly [number, number] | undefined,
): number | null {
  const [w, h] = size ?? [0, 0];
  if (!w || !h) return null;
  const aspect = img.width / img.height;
  const turned = Math.abs(aspect - h / w) < Math.abs(aspect - w / h);
  return (img.width * 72) / (turned ? h : w);
}

/**
 * A page's form field values (`PageClass.fields`, in points) as words among OCR's: levelled as the
 * page's words are (`level`, in the pixels of the page read at `scale` points a pixel), so a value
 * stays beside its label on a scan askew; set at the body's size (`body`, in points) where OCR
 * found one, as a field's text is the form's body text and sways no heading's tier.
 */
function fieldsAt(info: PageClass | undefined, scale: number, level: Level, body: number): PlacedWord[] {
  return (info?.fields ?? []).map((w) => {
    const half = (w.x1 - w.x0) / 2;
    const [x, base] = level((w.x0 + half) / scale, w.base / scale);
    return { ...w, x0: x * scale - half, x1: x * scale + half, base: base * scale, size: body > 0 ? body : w.size };
  });
}

/** A page's words with its fields' values among them (`besideFields`). */
const withFields = (words: PlacedWord[], fields: PlacedWord[]): PlacedWord[] => [
  ...besideFields(words, fields),
  ...fields,
];

/** Text a word's form is compared by: without its case and the signs around it. */
const wordKey = (text: string): string => text.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/**
 * The words OCR read less those a field's value repeats where the field stands (a paper form
 * filled in and scanned, its fields then filled too): the field's own text stands for both.
 */
function besideFields(words: PlacedWord[], fields: readonly PlacedWord[]): PlacedWord[] {
  if (!fields.length) return words;
  return words.filter((w) => {
    const key = wordKey(w.text);
    const mid = (w.x0 + w.x1) / 2;
    return !fields.some(
      (f) =>
        mid >= f.x0 - f.size &&
        mid <= f.x1 + f.size &&
        Math.abs(w.base - f.base) <= f.size &&
        f.text.split(/\s+/).some((t) => wordKey(t) === key),
    );
  });
}

/** Each block gets `data.ocr` and the mean confidence (0–1) of the words inside its box. */
function markConfidence(blocks: Block[], page: OcrPage, scale: number, level: Level): void {
  const words = page.lines.flatMap((l) => l.words);
  for (const b of blocks) {
    const box = b.source?.bbox;
    let sum = 0;
    let n = 0;
    if (box) {
      for (const w of words) {
        const [x, y] = level((w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2);
        const cx = x * scale;
        const cy = y * scale;
        if (cx >= box[0] - 1 && cx <= box[2] + 1 && cy >= box[1] - 1 && cy <= box[3] + 1) {
          sum += w.confidence;
          n++;
        }
      }
    }
    b.data = { ...b.data, ocr: true, ...(n ? { ocrConfidence: Math.round((sum / n) * 10) / 1000 } : {}) };
  }
}

function bboxArea(b: BBox | undefined): number {
  return b ? Math.max(0, b[2] - b[0]) * Math.max(0, b[3] - b[1]) : 0;
}

function pageSections(tree: Root): Section[] {
  return tree.children.filter((b): b is Section => b.type === 'section' && b.kind === 'page');
}

/** A page with almost no dark pixels (sampled) has nothing to read; OCR would spend seconds on it. */
function isBlank(img: Gray): boolean {
  const { data } = img;
  const step = Math.max(1, Math.floor(data.length / 400_000));
  let dark = 0;
  let seen = 0;
  for (let i = 0; i < data.length; i += step) {
    seen++;
    if ((data[i] as number) < 128) dark++;
  }
  return dark < seen * 0.0005;
}
