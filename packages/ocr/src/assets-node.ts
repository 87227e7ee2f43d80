import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { packHint } from './languages.ts';
import type { OcrAssets } from './ocr-assets.ts';

const require = createRequire(import.meta.url);

/**
 * The model folder of an installed `@tesseract.js-data/<lang>` package (`4.0.0_best_int`), resolved
 * from this package and then from the working directory (where a user installs an extra language
 * beside docmill), or undefined when it is not installed.
 */
export function installedModelDir(lang: string): string | undefined {
  for (const from of [require, createRequire(join(process.cwd(), 'package.json'))]) {
    try {
      return join(dirname(from.resolve(`@tesseract.js-data/${lang}/package.json`)), '4.0.0_best_int');
    } catch {
      // not installed there
    }
  }
  return undefined;
}

/**
 * A language asked for that cannot be read (its pack is not installed); the stage answers it as a
 * 400. Not a DocmillError: this module is loaded by build tools (the playground's Vite config)
 * that cannot load core's sources.
 */
export class OcrLanguageError extends Error {}

function modelDir(lang: string): string {
  const dir = installedModelDir(lang);
  if (!dir)
    throw new OcrLanguageError(
      `The OCR language "${lang}" is not installed: ${packHint(lang)}. Nothing is downloaded at run time.`,
    );
  return dir;
}

/**
 * Node's assets: the installed English and OSD models, and the `@tesseract.js-data/<lang>` package
 * of every other language asked for; with `langPath`, every language from that one folder.
 */
export function nodeAssets(langPath?: string, languages: readonly string[] = ['eng']): OcrAssets {
  if (languages.includes('osd'))
    throw new OcrLanguageError('ocr.languages: "osd" is the orientation model, not a language.');
  if (langPath) return { langPath, osdPath: modelDir('osd') };
  const [first = 'eng', ...rest] = languages;
  const langPaths: Record<string, string> = {};
  for (const lang of rest) langPaths[lang] = modelDir(lang);
  return { langPath: modelDir(first), osdPath: modelDir('osd'), ...(rest.length ? { langPaths } : {}) };
}

/**
 * What a browser build must serve, in one folder, for OCR in the browser: file name → installed
 * file, the given extra languages' models included (their packages installed). Copy them at build
 * time (the playground's Vite config does) and give the folder's URL as `createOcrStage({ assets })`.
 * Nothing is downloaded: every file is in node_modules.
 */
export function ocrAssetFiles(languages: readonly string[] = []): Record<string, string> {
  const tesseract = dirname(require.resolve('tesseract.js/package.json'));
  const core = dirname(createRequire(join(tesseract, 'package.json')).resolve('tesseract.js-core/package.json'));
  const files: Record<string, string> = {
    'worker.min.js': join(tesseract, 'dist/worker.min.js'),
    'tesseract-core-simd-lstm.wasm.js': join(core, 'tesseract-core-simd-lstm.wasm.js'),
    'tesseract-core-simd.wasm.js': join(core, 'tesseract-core-simd.wasm.js'),
    'eng.traineddata.gz': join(modelDir('eng'), 'eng.traineddata.gz'),
    'osd.traineddata.gz': join(modelDir('osd'), 'osd.traineddata.gz'),
  };
  for (const lang of languages) files[`${lang}.traineddata.gz`] = join(modelDir(lang), `${lang}.traineddata.gz`);
  return files;
}
