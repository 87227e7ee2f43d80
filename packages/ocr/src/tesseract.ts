import type Tesseract from 'tesseract.js';

type TWorker = Tesseract.Worker;

/**
 * Where tesseract.js finds what it loads. Node needs only the model folders (its worker and core
 * come from node_modules); a browser needs all of them as URLs of the app's own files, or
 * tesseract.js would fetch them from a CDN.
 */
export interface OcrAssets {
  /** Folder (Node path or URL) holding `<lang>.traineddata.gz` for the recognizer's languages. */
  langPath: string;
  /** Folder holding `osd.traineddata.gz` (orientation detection). */
  osdPath: string;
  /** Browsers: tesseract.js's worker script (`worker.min.js`). */
  workerPath?: string | undefined;
  /** Browsers: the LSTM core script (`tesseract-core-simd-lstm.wasm.js`). */
  corePath?: string | undefined;
  /** Browsers: the core with the legacy engine OSD needs (`tesseract-core-simd.wasm.js`). */
  legacyCorePath?: string | undefined;
}

export interface Engines {
  /** LSTM recognizer for the configured languages. */
  reader(): Promise<TWorker>;
  /** Orientation and script detection (needs tesseract's legacy engine and osd.traineddata). */
  osd(): Promise<TWorker>;
}

const cache = new Map<string, Engines>();

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
  });
}
