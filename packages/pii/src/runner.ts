import type { PiiSpan } from '@docmill/core';
import { type LabelMap, labelMap, type ParsedLabel, parseLabel } from './labels.ts';
import { ORT_FILES } from './ort-files.ts';
import { importTransformers } from './transformers.ts';
import { mergeWords, splitWords, type Word, windows } from './words.ts';

/** Where the model comes from and how it is run. Plain data: it crosses into workers. */
export interface ModelOptions {
  /**
   * A local directory (absolute, or starting with ./ or ../; in browsers a folder URL on the page's
   * origin, relative to the page) holding config.json (with id2label), tokenizer.json,
   * tokenizer_config.json and onnx/model.onnx; or a hub id, which is downloaded only when
   * `allowRemoteModels` is true.
   */
  model: string;
  allowRemoteModels?: boolean;
  /**
   * Browsers: the URL of the folder serving onnxruntime-web's files (`piiAssetFiles()` of
   * `@docmill/pii/assets`). Required there, so the runtime never comes from a CDN; unused in Node.
   */
  assets?: string;
  /** Model label → bucket overrides (merged over the CoNLL and PII-model defaults). */
  labels?: LabelMap;
  /** `fp32` loads onnx/model.onnx, `q8` onnx/model_quantized.onnx. Default fp32. */
  dtype?: 'fp32' | 'q8' | 'fp16';
  /** Tokens per window without the special tokens (default 256) and tokens shared by neighbours (default 32). */
  windowTokens?: number;
  overlapTokens?: number;
  /** Windows run together in one call (default 8). */
  batchSize?: number;
}

/** The model behind the smallest interface: texts in, spans out. Runs in-thread or in a worker. */
export interface TokenClassifier {
  classify(texts: readonly string[]): Promise<PiiSpan[][]>;
}

interface Loaded {
  tokenizer: {
    encode(text: string, options?: { add_special_tokens?: boolean }): number[];
  };
  model: ((inputs: Record<string, unknown>) => Promise<{ logits: { dims: number[]; data: Float32Array } }>) & {
    config: { id2label?: Record<string, string> };
    sessions?: Record<string, { inputNames?: string[] }>;
  };
  Tensor: new (type: 'int64', data: BigInt64Array, dims: number[]) => unknown;
}

const isPath = (s: string) => /^(?:\/|\.{1,2}\/|[A-Za-z]:[\\/]|file:)/.test(s);

/**
 * transformers.js takes a local model by path only (an http URL as its local path is never looked
 * up), and fetches such a path in browsers: a model folder on this origin is given as its path.
 */
function onThisOrigin(model: string): string {
  if (!/^https?:/i.test(model)) return model;
  const url = new URL(model);
  if (url.origin !== (globalThis as { location?: { origin: string } }).location?.origin)
    throw new Error(
      `PII model "${model}" is not on this page's origin. Serve the model folder from the app's own origin ` +
        '(in Node, give its directory).',
    );
  return url.pathname;
}

interface OrtEnv {
  versions?: { web?: string };
  wasm?: { wasmPaths?: unknown };
}

/**
 * In transformers.js's web build, point onnxruntime-web at the app's own copy of its files (the
 * library would otherwise fetch them from a CDN) and keep everything out of the Cache API.
 */
function useOwnRuntime(env: { backends: { onnx?: unknown } }, options: ModelOptions): void {
  const ort = env.backends.onnx as OrtEnv | undefined;
  if (!ort?.versions?.web || !ort.wasm) return;
  if (!options.assets)
    throw new Error(
      "PII model: no URL for onnxruntime-web's files. Serve the files of piiAssetFiles() " +
        "(@docmill/pii/assets) from your app and give their folder as the model's `assets`.",
    );
  const folder = options.assets.endsWith('/') ? options.assets : `${options.assets}/`;
  ort.wasm.wasmPaths = { mjs: new URL(ORT_FILES.mjs, folder).href, wasm: new URL(ORT_FILES.wasm, folder).href };
  Object.assign(env, { useBrowserCache: false, useWasmCache: false });
}

async function load(options: ModelOptions): Promise<Loaded> {
  const hf = await importTransformers();
  const { env } = hf;
  useOwnRuntime(env, options);
  let id = onThisOrigin(options.model);
  if (isPath(id)) {
    const path = id.startsWith('file:') ? decodeURIComponent(new URL(id).pathname) : id;
    const trimmed = path.replace(/[\\/]+$/, '');
    const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
    env.localModelPath = cut >= 0 ? trimmed.slice(0, cut + 1) : './';
    id = trimmed.slice(cut + 1);
    env.allowLocalModels = true;
    env.allowRemoteModels = false;
  } else {
    if (!options.allowRemoteModels)
      throw new Error(
        `PII model "${options.model}" is not a local directory and downloads are off. Give the path of a ` +
          'downloaded token-classification model (config.json, tokenizer.json, onnx/model.onnx), or set ' +
          'allowRemoteModels: true to fetch it once from the hub.',
      );
    env.allowRemoteModels = true;
  }
  const local = !options.allowRemoteModels;
  const [tokenizer, model] = await Promise.all([
    hf.AutoTokenizer.from_pretrained(id, { local_files_only: local }),
    hf.AutoModelForTokenClassification.from_pretrained(id, { local_files_only: local, dtype: options.dtype ?? 'fp32' }),
  ]);
  return { tokenizer, model, Tensor: hf.Tensor } as unknown as Loaded;
}

/** Loads the model once and classifies texts in overlapping token windows, batched. */
export async function createTokenClassifier(options: ModelOptions): Promise<TokenClassifier> {
  const { tokenizer, model, Tensor } = await load(options);
  const id2label = model.config.id2label;
  if (!id2label || Object.keys(id2label).length === 0)
    throw new Error(`PII model "${options.model}" has no id2label in its config.json.`);
  const map = labelMap(options.labels);
  const labels: ParsedLabel[] = [];
  for (const [i, raw] of Object.entries(id2label)) labels[Number(i)] = parseLabel(raw, map);
  const specials = tokenizer.encode('', { add_special_tokens: true });
  const head = specials.slice(0, 1);
  const tail = specials.slice(1);
  const size = options.windowTokens ?? 256;
  const overlap = Math.min(options.overlapTokens ?? 32, Math.floor(size / 2));
  const batchSize = options.batchSize ?? 8;
  const inputNames = Object.values(model.sessions ?? {})[0]?.inputNames ?? ['input_ids', 'attention_mask'];
  const cache = new Map<string, number[]>();

  // Words are tokenised one by one (cached), so every token knows its word and so its characters.
  const tokensOf = (text: string, word: Word): number[] => {
    const spaced = word.start > 0 && /\s/.test(text[word.start - 1] ?? '');
    const key = (spaced ? ' ' : '') + word.text;
    let ids = cache.get(key);
    if (!ids) {
      ids = tokenizer.encode(key, { add_special_tokens: false });
      if (cache.size > 50_000) cache.clear();
      cache.set(key, ids);
    }
    return ids;
  };

  async function run(batch: { ids: number[] }[]): Promise<Int32Array[]> {
    const length = Math.max(...batch.map((b) => b.ids.length));
    const ids = new BigInt64Array(batch.length * length);
    const mask = new BigInt64Array(batch.length * length);
    batch.forEach((b, r) => {
      b.ids.forEach((id, c) => {
        ids[r * length + c] = BigInt(id);
        mask[r * length + c] = 1n;
      });
    });
    const feeds: Record<string, unknown> = {
      input_ids: new Tensor('int64', ids, [batch.length, length]),
      attention_mask: new Tensor('int64', mask, [batch.length, length]),
    };
    if (inputNames.includes('token_type_ids'))
      feeds.token_type_ids = new Tensor('int64', new BigInt64Array(batch.length * length), [batch.length, length]);
    const { logits } = await model(feeds);
    const n = logits.dims[2] ?? 0;
    return batch.map((_, r) => {
      const best = new Int32Array(length);
      for (let c = 0; c < length; c++) {
        const at = (r * length + c) * n;
        let arg = 0;
        for (let k = 1; k < n; k++) if ((logits.data[at + k] ?? 0) > (logits.data[at + arg] ?? 0)) arg = k;
        best[c] = arg;
      }
      return best;
    });
  }

  return {
    async classify(texts) {
      const docs = texts.map((text) => {
        const words = splitWords(text);
        const tokenWord: number[] = [];
        const tokenIds: number[] = [];
        words.forEach((w, wi) => {
          for (const id of tokensOf(text, w)) {
            tokenIds.push(id);
            tokenWord.push(wi);
          }
        });
        return { text, words, tokenWord, tokenIds, wordLabel: new Array<number>(words.length).fill(-1) };
      });
      const jobs = docs.flatMap((d) =>
        windows(d.tokenIds.length, size, overlap).map((w) => ({
          doc: d,
          w,
          ids: [...head, ...d.tokenIds.slice(w.start, w.end), ...tail],
        })),
      );
      // Similar lengths batch together, so padding stays small.
      jobs.sort((a, b) => a.ids.length - b.ids.length);
      for (let i = 0; i < jobs.length; i += batchSize) {
        const batch = jobs.slice(i, i + batchSize);
        const results = await run(batch);
        batch.forEach((job, r) => {
          const best = results[r] as Int32Array;
          for (let t = job.w.ownStart; t < job.w.ownEnd; t++) {
            const wi = job.doc.tokenWord[t] as number;
            // A word takes the label of its first token.
            if (t > 0 && job.doc.tokenWord[t - 1] === wi) continue;
            job.doc.wordLabel[wi] = best[t - job.w.start + head.length] ?? 0;
          }
        });
      }
      const outside: ParsedLabel = { position: 'O', entity: null, base: 'O' };
      return docs.map((d) =>
        mergeWords(
          d.text,
          d.words,
          d.wordLabel.map((l) => (l >= 0 ? (labels[l] ?? outside) : outside)),
        ),
      );
    },
  };
}
