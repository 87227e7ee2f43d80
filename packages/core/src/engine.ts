import type { PdfEngineConfig } from './adapters/pdf/backend/index.ts';
import { type AdapterOverrides, adapterFor } from './adapters/registry.ts';
import type { AdapterContext, AdapterOutput, PageClass, ParseProgress } from './adapters/types.ts';
import { chunkLayout } from './derive/chunks/index.ts';
import type { Chunk } from './derive/chunks/types.ts';
import type { DeriveResult, Deriver, LlmConfig } from './derive/types.ts';
import { type Detected, detect, MIME_TYPES } from './detect.ts';
import { badInput, DocmillError, throwIfAborted, timeoutError, toDocmillError } from './errors.ts';
import { type ParseInput, readInput } from './input.ts';
import { DEFAULT_LIMITS, type Limits } from './limits.ts';
import { type ChunksSpec, normalizeOptions, type ResolvedOptions } from './options/normalize.ts';
import type { ParseOptions } from './options/schema.ts';
import { layoutBlocks } from './render/blocks.ts';
import { renderMarkdownWithSpans } from './render/markdown.ts';
import { buildResult, markdownOptions, type ParseData, type Rendered } from './result.ts';
import { piiStage } from './stages/pii/stage.ts';
import type { PiiConfig } from './stages/pii/types.ts';
import type { Offload, Stage, StageContext } from './stages/types.ts';
import { capTree, outputBudget, sizeOf } from './tree/budget.ts';
import type { Root } from './tree/types.ts';
import { decryptOoxml } from './util/offcrypto.ts';
import { progressReporter } from './util/progress.ts';

export interface ParseHints {
  filename?: string;
  contentType?: string;
  /** Known origin of the bytes; becomes `metadata.sourceURL` and the base for relative links. */
  sourceURL?: string;
  /** Caller cancellation, in addition to the `timeout` option. */
  signal?: AbortSignal;
  /**
   * Password of an encrypted document. Encrypted OOXML is decrypted before detection (Excel's default
   * "VelvetSweatshop" is tried without one); adapters get it too, for formats they decrypt themselves.
   */
  password?: string;
  /**
   * Called as the document is read: pages for PDFs, slides, sheets, chapters. Synchronous and
   * best effort: an exception it throws is swallowed, never failing the parse.
   */
  onProgress?: (progress: ParseProgress) => void;
  /** Idle workers a stage may hand units of work to (set by a pooled engine inside its workers). */
  offload?: Offload;
}

export interface EngineConfig {
  limits?: Partial<Limits>;
  /** Replace or add adapters per file kind (tests, custom formats). */
  adapters?: AdapterOverrides;
  /** Tree stages run in order after the adapter (OCR, PII redaction). */
  stages?: Stage[];
  /** OpenAI-compatible chat-completions endpoint for the `summary` and `json` formats (optional). */
  llm?: LlmConfig;
  /** Replaces the built-in summary/json derivations (e.g. one that runs them in a worker). */
  deriver?: Deriver;
  /**
   * PII redaction. Unless a given stage already redacts, a PII stage runs after `stages`: heuristics
   * for `mode: "fast"`, plus `model` for `accurate`/`aggressive`. `false` installs none, so
   * `redactPII` is refused.
   */
  pii?: PiiConfig | false;
  /** PDF backend: PDFium (default, pdf.js tried when PDFium cannot open a file) or pdf.js. */
  pdf?: PdfEngineConfig;
}

export interface TreeResult {
  tree: Root;
  kind: Detected['kind'];
  options: ResolvedOptions;
  output: AdapterOutput;
  warnings: string[];
  /** `summary` and `json`, derived from the final tree when those formats were asked for. */
  derived?: DeriveResult;
  /** The `chunks` format, cut from the final tree (offsets into `data.markdown` when it is asked for). */
  chunks?: Chunk[];
}

export interface Engine {
  parse(input: ParseInput, options?: ParseOptions, hints?: ParseHints): Promise<ParseData>;
  parseTree(input: ParseInput, options?: ParseOptions, hints?: ParseHints): Promise<TreeResult>;
  close(): Promise<void>;
}

export function createEngine(config: EngineConfig = {}): Engine {
  const limits: Limits = { ...DEFAULT_LIMITS, ...config.limits };
  const given = config.stages ?? [];
  const stages = config.pii === false || given.some((s) => s.redacts) ? given : [...given, piiStage(config.pii ?? {})];
  let closed = false;
  // Derivations load on first use: parses that ask for neither format never import Ajv.
  let deriver: Promise<Deriver> | undefined = config.deriver && Promise.resolve(config.deriver);
  const getDeriver = () => {
    deriver ??= import('./derive/index.ts').then((m) => m.createDeriver({ llm: config.llm }));
    return deriver;
  };

  const ocrStages = stages.filter((s) => s.ocr);
  const hasOcr = ocrStages.length > 0;

  /**
   * Detected bytes → adapter → the given stages: what an upload and every document inside one
   * (archive member, attachment) go through alike.
   */
  async function readDocument(
    bytes: Uint8Array,
    detected: Detected,
    names: { filename?: string | undefined; sourceURL?: string | undefined; password?: string | undefined },
    run: Omit<StageContext, 'kind' | 'bytes' | 'adapterOutput'>,
    toRun: readonly Stage[],
    embed: AdapterContext['embed'],
  ): Promise<{ tree: Root; output: AdapterOutput; ocrRan: boolean }> {
    const { options, signal } = run;
    if (detected.kind === 'image' && !hasOcr) {
      throw new DocmillError(
        400,
        'PARSE_UNSUPPORTED_OPTIONS',
        'Parsing raster images needs OCR and this engine has no OCR stage (add the one from @docmill/ocr); send a PDF or office document instead.',
      );
    }
    const adapter = await adapterFor(detected.kind, config.adapters);
    let output: AdapterOutput;
    try {
      output = await adapter.parse(bytes, {
        kind: detected.kind,
        filename: names.filename,
        sourceURL: names.sourceURL,
        mime: detected.imageMime ?? MIME_TYPES[detected.kind],
        options,
        limits,
        signal,
        warn: run.warn,
        password: names.password,
        progress: progressReporter(run.onProgress, 'parse'),
        pdf: config.pdf,
        zipListing: detected.zipListing,
        embed,
      });
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      throw toDocmillError(err);
    }
    let tree = output.tree;
    tree.metadata.contentType ??= detected.imageMime ?? MIME_TYPES[detected.kind];
    if (names.sourceURL) {
      tree.metadata.sourceURL ??= names.sourceURL;
      tree.metadata.url ??= names.sourceURL;
    }
    // Field by field: an object spread costs microseconds here, on every parse.
    const stageCtx: StageContext = {
      options: run.options,
      signal: run.signal,
      warn: run.warn,
      onProgress: run.onProgress,
      offload: run.offload,
      kind: detected.kind,
      bytes,
      adapterOutput: output,
    };
    let ocrRan = false;
    for (const stage of toRun) {
      if (signal.aborted) throw signal.reason;
      if (!stage.applies(stageCtx)) continue;
      tree = await stage.run(tree, stageCtx);
      ocrRan ||= Boolean(stage.ocr);
    }
    return { tree, output, ocrRan };
  }

  /**
   * `ctx.embed` for a document at `depth` containers down. Embedded documents get OCR (not PII
   * redaction, which runs once on the whole tree) and an output budget of their own, and share the
   * upload's budgets for their number, their bytes and the output.
   */
  function embedder(
    depth: number,
    shared: EmbedBudget,
    run: Pick<StageContext, 'options' | 'signal' | 'warn'>,
  ): AdapterContext['embed'] {
    return async (bytes, name, embedHints = {}) => {
      throwIfAborted(run.signal);
      if (depth + 1 > limits.maxNestingDepth)
        throw badInput(`it is nested more than ${limits.maxNestingDepth} containers deep`);
      if (shared.documents <= 0)
        throw badInput(`the limit of ${limits.maxEmbeddedDocuments} embedded documents was reached`);
      if (bytes.byteLength > shared.bytes)
        throw badInput(`the ${limits.maxUnzippedBytes}-byte budget for embedded documents was spent`);
      if (shared.output <= 0) throw badInput('the output budget of the upload was spent');
      if (bytes.byteLength === 0) throw badInput('it is empty');
      shared.documents--;
      shared.bytes -= bytes.byteLength;
      const detected = detect(bytes, {
        filename: name,
        contentType: embedHints.contentType,
        acceptImages: run.options.imageParser,
      });
      const warn = (m: string) => run.warn(`${name}: ${m}`);
      const doc = await readDocument(
        bytes,
        detected,
        { filename: name },
        { ...run, warn },
        ocrStages,
        embedder(depth + 1, shared, { ...run, warn }),
      );
      const budget = Math.min(
        shared.output,
        outputBudget(bytes.byteLength, limits.maxOutputRatio, limits.minOutputChars),
      );
      if (capTree(doc.tree, budget))
        warn(
          'its output passed its budget (characters per input byte, or what the upload had left); it was cut there.',
        );
      shared.output -= sizeOf(doc.tree, shared.output + 1);
      if (doc.output.pageInfo && !doc.ocrRan) warnUnread(doc.output.pageInfo, hasOcr, warn);
      return { tree: doc.tree, kind: detected.kind };
    };
  }

  async function run(
    input: ParseInput,
    rawOptions: ParseOptions | undefined,
    hints: ParseHints,
  ): Promise<TreeResult & { bytes: Uint8Array; rendered?: Rendered }> {
    if (closed) throw new DocmillError(500, 'UNKNOWN_ERROR', 'The engine is closed.');
    const options = normalizeOptions(rawOptions ?? {});
    const deadline = Date.now() + options.timeout;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(timeoutError(options.timeout)), options.timeout);
    const onCallerAbort = () => {
      const reason = hints.signal?.reason;
      controller.abort(
        reason instanceof DocmillError
          ? reason
          : new DocmillError(408, 'SCRAPE_TIMEOUT', 'Parsing was aborted by the caller.'),
      );
    };
    hints.signal?.addEventListener('abort', onCallerAbort, { once: true });
    if (hints.signal?.aborted) onCallerAbort();
    const signal = controller.signal;
    // The race makes the deadline hold even while an adapter is inside a synchronous-heavy step;
    // adapters also check the signal so their work really stops.
    const aborted = new Promise<never>((_, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    aborted.catch(() => undefined);
    try {
      return await Promise.race([work(input, options, hints, signal, deadline), aborted]);
    } finally {
      clearTimeout(timer);
      hints.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  async function work(
    input: ParseInput,
    options: ResolvedOptions,
    hints: ParseHints,
    signal: AbortSignal,
    deadline: number,
  ) {
    const fileHint =
      typeof Blob !== 'undefined' && input instanceof Blob ? (input as Blob & { name?: string }) : undefined;
    const filename = hints.filename ?? fileHint?.name;
    const contentType = hints.contentType ?? (fileHint?.type || undefined);
    // Redaction fails closed: without a stage that redacts, refuse before reading anything.
    if (options.redactPII && !stages.some((s) => s.redacts)) {
      throw new DocmillError(
        400,
        'PARSE_UNSUPPORTED_OPTIONS',
        'redactPII was requested but this engine has no PII redaction stage; no unredacted text is returned.',
      );
    }
    for (const stage of stages) stage.validate?.(options);
    const raw = await readInput(input, limits.maxInputBytes, signal);
    if (raw.byteLength === 0) throw new DocmillError(400, 'BAD_REQUEST', 'The file is empty (0 bytes).');
    const bytes = await decryptOoxml(raw, hints.password, signal);
    const detected = detect(bytes, { filename, contentType, acceptImages: options.imageParser });
    const warnings: string[] = [];
    const warn = (m: string) => {
      if (!warnings.includes(m)) warnings.push(m);
    };
    const shared: EmbedBudget = {
      documents: limits.maxEmbeddedDocuments,
      bytes: limits.maxUnzippedBytes,
      output: outputBudget(bytes.byteLength, limits.maxOutputRatio, limits.minOutputChars),
    };
    const doc = await readDocument(
      bytes,
      detected,
      { filename, sourceURL: hints.sourceURL, password: hints.password },
      { options, signal, warn, onProgress: hints.onProgress, offload: hints.offload },
      stages,
      embedder(0, shared, { options, signal, warn }),
    );
    const { output, tree } = doc;
    if (capTree(tree, outputBudget(bytes.byteLength, limits.maxOutputRatio, limits.minOutputChars)))
      warn(
        `The output passed ${limits.maxOutputRatio} characters per input byte, far more than the file can hold; it was cut there (a damaged or hostile file).`,
      );
    if (output.pageInfo && !doc.ocrRan) warnUnread(output.pageInfo, hasOcr, warn);
    // Derivations come last: they see the tree every stage (PII redaction included) has finished.
    let derived: DeriveResult | undefined;
    if (options.formats.has('summary') || options.formats.has('json')) {
      if (signal.aborted) throw signal.reason;
      const request = {
        tree,
        summary: options.formats.has('summary'),
        zeroDataRetention: options.raw.zeroDataRetention,
        deadline,
        ...(options.formats.has('json') ? { json: options.json ?? {} } : {}),
      };
      derived = await (await getDeriver())(request, signal);
    }
    const chunked = options.chunks && (await chunksOf(tree, options, signal, deadline));
    return {
      tree,
      kind: detected.kind,
      options,
      output,
      warnings,
      bytes,
      ...(derived ? { derived } : {}),
      ...(chunked ? { chunks: chunked.chunks, rendered: chunked.rendered } : {}),
    };
  }

  return {
    async parseTree(input, options, hints = {}) {
      try {
        const { bytes: _bytes, rendered: _rendered, ...rest } = await run(input, options, hints);
        return rest;
      } catch (err) {
        throw toDocmillError(err);
      }
    },
    async parse(input, options, hints = {}) {
      try {
        const r = await run(input, options, hints);
        return buildResult(r, hints.sourceURL, r.rendered);
      } catch (err) {
        throw toDocmillError(err);
      }
    },
    async close() {
      closed = true;
      await Promise.all(stages.map((s) => s.close?.()));
    },
  };
}

/** What the documents inside one upload share, whatever their depth. */
interface EmbedBudget {
  /** Documents still allowed (`maxEmbeddedDocuments`). */
  documents: number;
  /** Bytes of embedded documents still allowed (`maxUnzippedBytes`). */
  bytes: number;
  /** Output characters the upload has left. */
  output: number;
}

/**
 * Scanned pages no OCR stage read are named: without one, or when the OCR stage itself declined
 * (PDF fast mode; images it always reads).
 */
function warnUnread(pageInfo: Record<number, PageClass>, hasOcr: boolean, warn: (m: string) => void): void {
  const unread = Object.entries(pageInfo).filter(([, c]) => c.text !== 'text' && c.imageCoverage > 0.2);
  if (!unread.length) return;
  const pages = unread.map(([n]) => n).join(', ');
  warn(
    hasOcr
      ? `Page(s) ${pages} look scanned (no usable text layer) and fast mode does not OCR: their text is missing (use mode "auto" or "ocr").`
      : `Page(s) ${pages} look scanned (no usable text layer) and this engine has no OCR stage: their text is missing.`,
  );
}

/**
 * Chunks of the finished tree, with the Markdown they were cut from (`data.markdown` reuses it, so
 * the offsets point into it); offsets are dropped when the Markdown is not returned.
 */
async function chunksOf(
  tree: Root,
  options: ResolvedOptions,
  signal: AbortSignal,
  deadline: number,
): Promise<{ chunks: Chunk[]; rendered: Rendered }> {
  const spec = options.chunks as ChunksSpec;
  if (signal.aborted) throw signal.reason;
  const { markdown, spans } = renderMarkdownWithSpans(tree, markdownOptions(options));
  const rendered: Rendered = { markdown, spans, layout: layoutBlocks(tree, spans, markdown) };
  // Chunking is synchronous between its task turns: the deadline is checked there too.
  const check = () => {
    if (Date.now() > deadline) throw timeoutError(options.timeout);
  };
  const chunks = await chunkLayout(rendered.layout, { ...spec, signal, check });
  if (!options.formats.has('markdown'))
    for (const c of chunks) {
      delete c.startOffset;
      delete c.endOffset;
    }
  return { chunks, rendered };
}

let defaultEngine: Engine | undefined;

/** Parses with a lazily created default engine. */
export function parse(input: ParseInput, options?: ParseOptions, hints?: ParseHints): Promise<ParseData> {
  defaultEngine ??= createEngine();
  return defaultEngine.parse(input, options, hints);
}

export function parseTree(input: ParseInput, options?: ParseOptions, hints?: ParseHints): Promise<TreeResult> {
  defaultEngine ??= createEngine();
  return defaultEngine.parseTree(input, options, hints);
}
