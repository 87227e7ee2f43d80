import type Tesseract from 'tesseract.js';
import type { OcrAssets } from './ocr-assets.ts';

type TWorker = Tesseract.Worker;

export interface Engines {
  /** LSTM recognizer for the configured languages. */
  reader(): Promise<TWorker>;
  /** Orientation and script detection (needs tesseract's legacy engine and osd.traineddata). */
  osd(): Promise<TWorker>;
}

const cache = new Map<string, Engines & { end(): Promise<void> }>();
let holders = 0;

/**
 * An OCR stage that recognizes on its caller's thread holds that thread's tesseract workers; when
 * the last such stage closes they end, or their threads would keep the caller's process alive.
 */
export function holdEngines(): () => Promise<void> {
  holders++;
  let held = true;
  return async () => {
    if (!held) return;
    held = false;
    if (--holders > 0) return;
    const all = [...cache.values()];
    cache.clear();
    await Promise.all(all.map((e) => e.end()));
  };
}

/**
 * tesseract.js workers, created on first use and kept for the life of the thread (a model loads in
 * about half a second; a page takes two). Models come from the given folders only, gzipped as the
 * data packages ship them, and `cacheMethod: 'none'` keeps tesseract.js from storing them (disk in
 * Node, IndexedDB in browsers).
 */
export function engines(languages: string[], assets: OcrAssets): Engines {
  const key = `${languages.join('+')}|${JSON.stringify(assets)}`;
  let e = cache.get(key);
  if (!e) {
    let reader: Promise<TWorker> | undefined;
    let osd: Promise<TWorker> | undefined;
    e = {
      reader: () => {
        reader ??= create(languages, assets.langPath, assets.corePath, assets, false).then((w) =>
          assets.langPaths ? addLanguages(w, languages, assets.langPaths) : w,
        );
        reader.catch(() => {
          reader = undefined;
        });
        return reader;
      },
      osd: () => {
        osd ??= create(['osd'], assets.osdPath, assets.legacyCorePath, assets, true);
        osd.catch(() => {
          osd = undefined;
        });
        return osd;
      },
      async end() {
        const started = [reader, osd].filter((w) => w !== undefined);
        reader = osd = undefined;
        await Promise.all(started.map((w) => w.then((x) => x.terminate()).catch(() => undefined)));
      },
    };
    cache.set(key, e);
  }
  return e;
}

/**
 * Loads the languages whose model is in a folder of its own (Node: one package per language) into
 * a worker made with the first one, then starts it with all of them. tesseract.js takes one model
 * folder per worker, so the models are put into its file system here, gunzipped; its
 * `reinitialize` loads only the languages missing from the list the worker was made with, which is
 * the array given to `createWorker` (tesseract.js 7 keeps it, not a copy).
 */
async function addLanguages(w: TWorker, languages: string[], folders: Record<string, string>): Promise<TWorker> {
  const node = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (!node) throw new Error('OCR models from separate folders are read in Node only.');
  const fs = node('node:fs') as typeof import('node:fs');
  const zlib = node('node:zlib') as typeof import('node:zlib');
  for (const [lang, folder] of Object.entries(folders)) {
    const data = zlib.gunzipSync(fs.readFileSync(`${folder}/${lang}.traineddata.gz`));
    await w.FS('writeFile', [`${lang}.traineddata`, data]);
  }
  const loaded = (w as unknown as { [LOADED]?: string[] })[LOADED];
  loaded?.push(...Object.keys(folders));
  await w.reinitialize(languages.join('+'), undefined);
  await w.setParameters({ debug_file: '/dev/null' });
  return w;
}

/** Where a worker keeps the array of languages it was made with. */
const LOADED = Symbol('docmill.loadedLanguages');

async function create(
  langs: string[],
  langPath: string,
  corePath: string | undefined,
  assets: OcrAssets,
  legacy: boolean,
): Promise<TWorker> {
  const { createWorker, OEM } = (await import('tesseract.js')).default;
  // With models in several folders, the worker starts with the first language only.
  const first = assets.langPaths && !legacy ? langs.filter((l) => !assets.langPaths?.[l]) : langs;
  return createWorker(first, legacy ? OEM.TESSERACT_ONLY : OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: 'none',
    // A named core file, not a folder: tesseract.js would pick a relaxed-SIMD build where the
    // browser has it, whose fused arithmetic can read differently from Node's plain-SIMD build.
    ...(corePath ? { corePath } : {}),
    ...(assets.workerPath ? { workerPath: assets.workerPath, workerBlobURL: false } : {}),
    ...(legacy ? { legacyCore: true, legacyLang: true } : {}),
    errorHandler: () => undefined,
  }).then(async (w) => {
    // Tesseract's own diagnostics ("Invalid resolution 0 dpi" for images that declare none) go to
    // its debug file instead of the thread's stdout, which in-thread OCR shares with the caller.
    await w.setParameters({ debug_file: '/dev/null' });
    Object.assign(w, { [LOADED]: first });
    return w;
  });
}
