import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { OcrAssets } from './ocr-assets.ts';

const require = createRequire(import.meta.url);

/** The bundled model folders (`@tesseract.js-data/<lang>/4.0.0_best_int`), for Node. */
function modelDir(lang: 'eng' | 'osd'): string {
  return join(dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), '4.0.0_best_int');
}

/** Node's assets: the installed English and OSD models, or `langPath` for other languages. */
export function nodeAssets(langPath?: string): OcrAssets {
  return { langPath: langPath ?? modelDir('eng'), osdPath: modelDir('osd') };
}

/**
 * What a browser build must serve, in one folder, for OCR in the browser: file name → installed
 * file. Copy them at build time (the playground's Vite config does) and give the folder's URL as
 * `createOcrStage({ assets })`. Nothing is downloaded: every file is in node_modules.
 */
export function ocrAssetFiles(): Record<string, string> {
  const tesseract = dirname(require.resolve('tesseract.js/package.json'));
  const core = dirname(createRequire(join(tesseract, 'package.json')).resolve('tesseract.js-core/package.json'));
  return {
    'worker.min.js': join(tesseract, 'dist/worker.min.js'),
    'tesseract-core-simd-lstm.wasm.js': join(core, 'tesseract-core-simd-lstm.wasm.js'),
    'tesseract-core-simd.wasm.js': join(core, 'tesseract-core-simd.wasm.js'),
    'eng.traineddata.gz': join(modelDir('eng'), 'eng.traineddata.gz'),
    'osd.traineddata.gz': join(modelDir('osd'), 'osd.traineddata.gz'),
  };
}
