import type Tesseract from 'tesseract.js';

type TWorker = Tesseract.Worker;

export interface Engines {
  /** LSTM recognizer for the configured languages. */
  reader(): Promise<TWorker>;
  /** Orientation and script detection (needs tesseract's legacy engine and osd.traineddata). */
  osd(): Promise<TWorker>;
}

const cache = new Map<string, Engines>();

/**
 * tesseract.js workers, created on first use and kept for the life of the thread (a model loads in
 * about half a second; a page takes two). Models come from local directories only, gzipped as the
 * data packages ship them, and `cacheMethod: 'none'` keeps tesseract.js from writing them to disk.
 */
export function engines(languages: string[], langPath: string | undefined): Engines {
  const key = `${languages.join('+')}|${langPath ?? ''}`;
  let e = cache.get(key);
  if (!e) {
    let reader: Promise<TWorker> | undefined;
    let osd: Promise<TWorker> | undefined;
    e = {
      reader: () => {
        reader ??= create(languages, langPath ?? modelDir('eng'), false);
        reader.catch(() => {
          reader = undefined;
        });
        return reader;
      },
      osd: () => {
        osd ??= create(['osd'], modelDir('osd'), true);
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

async function create(langs: string[], langPath: string | Promise<string>, legacy: boolean): Promise<TWorker> {
  const { createWorker, OEM } = (await import('tesseract.js')).default;
  const path = await langPath;
  return createWorker(langs, legacy ? OEM.TESSERACT_ONLY : OEM.LSTM_ONLY, {
    langPath: path,
    gzip: true,
    cacheMethod: 'none',
    ...(legacy ? { legacyCore: true, legacyLang: true } : {}),
    errorHandler: () => undefined,
  });
}

/** The bundled model directories (`@tesseract.js-data/<lang>/4.0.0_best_int`), resolved in Node. */
async function modelDir(lang: 'eng' | 'osd'): Promise<string> {
  const { createRequire } = await import('node:module');
  const { dirname, join } = await import('node:path');
  const pkg = createRequire(import.meta.url).resolve(`@tesseract.js-data/${lang}/package.json`);
  return join(dirname(pkg), '4.0.0_best_int');
}
