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
        reader ??= create(languages, assets.langPath, assets.corePath, assets, false);
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

async function create(
  langs: string[],
  langPath: string,
  corePath: string | undefined,
  assets: OcrAssets,
  legacy: boolean,
): Promise<TWorker> {
  const { createWorker, OEM } = (await import('tesseract.js')).default;
  return createWorker(langs, legacy ? OEM.TESSERACT_ONLY : OEM.LSTM_ONLY, {
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
    return w;
  });
}
