import { DocmillError, type ParseData, type ParseHints, timeoutError, toDocmillError } from '@docmill/core';
import type { Fetcher } from '@docmill/server/node';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolResult,
  ListRootsResultSchema,
  RootsListChangedNotificationSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { MCP_DEFAULTS, type McpConfig, type ResolvedMcpConfig, resolveMcpConfig, type ToolLog } from './config.ts';
import { formatList } from './formats.ts';
import { forwardProgress } from './progress.ts';
import { chunkResult, formatOrder, parseResult } from './results.ts';
import { narrowRoots, type Root, resolveRoots } from './roots.ts';
import {
  type ChunkDocumentArgs,
  chunkDocumentInput,
  chunkDocumentOutput,
  listFormatsInput,
  type ParseDocumentArgs,
  parseDocumentInput,
  parseDocumentOutput,
} from './schemas.ts';
import { type Loaded, loadSource, type SourceArgs } from './source.ts';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Who a server instance talks to (the HTTP transport has one per session). */
export interface SessionInfo {
  sessionId?: string;
  keyId?: string;
}

export interface DocmillMcp {
  readonly config: ResolvedMcpConfig;
  /** The operator's roots, resolved. */
  readonly roots: readonly Root[];
  /** A new MCP server with docmill's tools, for one connection. */
  createServer(session?: SessionInfo): McpServer;
}

const INSTRUCTIONS =
  'docmill parses documents locally (PDF, Word, Excel, PowerPoint, OpenDocument, RTF, EPUB, CSV, HTML) ' +
  'into Markdown and other formats. Use parse_document for a whole document, chunk_document for ' +
  'retrieval-sized pieces or to read a long document part by part, list_formats for what is accepted. ' +
  'Files are read only inside the folders the server was given.';

/** What a tool call reports to the log besides its outcome. */
interface CallFacts {
  source?: Loaded['kind'];
  bytes: number;
  pages: number;
}

let fetcherPromise: Promise<Fetcher> | undefined;
/** The SSRF-guarded fetcher of @docmill/server, loaded on the first `url`. */
const nodeFetcher = () => {
  fetcherPromise ??= import('@docmill/server/node').then((m) => m.createNodeFetcher());
  return fetcherPromise;
};

/** Resolves the roots once; each connection then gets its own server over the same engine. */
export async function createDocmillMcp(config: McpConfig): Promise<DocmillMcp> {
  const cfg = resolveMcpConfig(config);
  const cwd = config.cwd ?? process.cwd();
  const roots = await resolveRoots(config.roots?.length ? config.roots : [cwd], cwd);
  return {
    config: cfg,
    roots,
    createServer: (session = {}) => buildServer(cfg, roots, session),
  };
}

function buildServer(cfg: ResolvedMcpConfig, operatorRoots: readonly Root[], session: SessionInfo): McpServer {
  const server = new McpServer(
    { name: 'docmill', version: cfg.version },
    {
      capabilities: { logging: {} },
      instructions: INSTRUCTIONS,
      maxToolInputElements: MCP_DEFAULTS.maxToolInputElements,
    },
  );

  // The client's roots, asked once and again after it says they changed.
  let clientRoots: Promise<readonly Root[]> | undefined;
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    clientRoots = undefined;
  });
  const rootsFor = (extra: Extra) => async (): Promise<readonly Root[]> => {
    if (!server.server.getClientCapabilities()?.roots) return operatorRoots;
    clientRoots ??= extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema, { timeout: 10_000 }).then(
      (r) =>
        narrowRoots(
          operatorRoots,
          r.roots.map((x) => x.uri),
        ),
      // A client that announces roots but cannot list them gets the operator's roots, which
      // are the boundary anyway; it is asked again on the next call.
      () => {
        clientRoots = undefined;
        return operatorRoots;
      },
    );
    return clientRoots;
  };

  /** Runs one call: progress, cancellation, the error result, the log record. */
  async function call(
    tool: string,
    extra: Extra,
    work: (facts: CallFacts, hints: Pick<ParseHints, 'signal' | 'onProgress'>) => Promise<CallToolResult>,
  ): Promise<CallToolResult> {
    const started = performance.now();
    const facts: CallFacts = { bytes: 0, pages: 0 };
    const progress = forwardProgress(extra._meta?.progressToken, extra.sendNotification);
    const record = (status: number, more: Partial<ToolLog> = {}) =>
      cfg.log({
        level: status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
        msg: 'tool',
        time: new Date().toISOString(),
        tool,
        ...(session.sessionId ? { sessionId: session.sessionId } : {}),
        ...(session.keyId ? { keyId: session.keyId } : {}),
        ...(facts.source ? { source: facts.source } : {}),
        status,
        bytes: facts.bytes,
        pages: facts.pages,
        durationMs: Math.round(performance.now() - started),
        ...more,
      });
    try {
      const hints = { signal: extra.signal, ...(progress.onProgress ? { onProgress: progress.onProgress } : {}) };
      const result = await work(facts, hints);
      await progress.end();
      record(200);
      return result;
    } catch (err) {
      await progress.end();
      if (extra.signal.aborted) {
        // The client cancelled: the SDK sends no answer; the engine has stopped the parse.
        record(499, { code: 'CANCELLED' });
        return { content: [{ type: 'text', text: 'Cancelled.' }], isError: true };
      }
      const fetchFailure = scrapeFailure(err);
      if (fetchFailure) {
        record(fetchFailure.status, { code: fetchFailure.code });
        return errorResult(fetchFailure);
      }
      const e = toDocmillError(err as Error);
      if (e.status >= 500) {
        const errorId = crypto.randomUUID();
        const cause = e.cause instanceof Error ? e.cause : e;
        record(e.status, { code: e.code, errorId, errorMessage: `${cause.name}: ${cause.message}` });
        return errorResult(new DocmillError(e.status, e.code, `An unexpected error occurred (error id ${errorId}).`));
      }
      record(e.status, { code: e.code });
      return errorResult(e);
    }
  }

  /** Loads the source a call names and parses it with `options`, counting bytes and pages. */
  async function parseSource(
    args: SourceArgs & { password?: string | undefined; timeout: number },
    options: Record<string, unknown>,
    facts: CallFacts,
    hints: Pick<ParseHints, 'signal' | 'onProgress'>,
    extra: Extra,
  ): Promise<ParseData> {
    // One deadline for the fetch and the parse together, as /v2/scrape counts its timeout.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(timeoutError(args.timeout)), args.timeout);
    const signal = AbortSignal.any([hints.signal as AbortSignal, deadline.signal]);
    let data: ParseData;
    try {
      const loaded = await loadSource(args, {
        roots: rootsFor(extra),
        maxFileBytes: cfg.maxFileBytes,
        fetcher: async () => cfg.fetcher ?? (await nodeFetcher()),
        allowPrivateNetworks: cfg.allowPrivateNetworks,
        maxRedirects: cfg.maxRedirects,
        signal,
      });
      facts.source = loaded.kind;
      facts.bytes = loaded.bytes.byteLength;
      data = await cfg.engine.parse(
        loaded.bytes,
        { ...options, timeout: args.timeout },
        { ...loaded.hints, ...hints, signal, ...(args.password ? { password: args.password } : {}) },
      );
    } finally {
      clearTimeout(timer);
    }
    facts.pages = typeof data.metadata.numPages === 'number' ? data.metadata.numPages : 1;
    return data;
  }

  server.registerTool(
    'parse_document',
    {
      title: 'Parse a document',
      description:
        'Parses one document (a file inside the allowed folders, an http(s) URL, or base64 data) locally ' +
        'into Markdown and the other asked formats, with its metadata. Long results are cut at ' +
        `${cfg.maxResultChars.toLocaleString('en-US')} characters with a note on how to read the rest.`,
      inputSchema: parseDocumentInput,
      outputSchema: parseDocumentOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    },
    (args: ParseDocumentArgs, extra) =>
      call('parse_document', extra, async (facts, hints) => {
        const { path, url, data, filename, password, ...options } = args;
        const parsed = await parseSource(
          { path, url, data, filename, password, timeout: options.timeout },
          options,
          facts,
          hints,
          extra,
        );
        return parseResult(parsed, formatOrder(options.formats), cfg.maxResultChars);
      }),
  );

  server.registerTool(
    'chunk_document',
    {
      title: 'Chunk a document',
      description:
        'Parses one document like parse_document and cuts it into retrieval-sized chunks (maxTokens, ' +
        'overlapTokens, tokenizer) that follow its headings, tables and lists; each chunk carries its ' +
        'heading path, pages, sheet or chapter. Returns the chunks from start; next says how to continue.',
      inputSchema: chunkDocumentInput,
      outputSchema: chunkDocumentOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    },
    (args: ChunkDocumentArgs, extra) =>
      call('chunk_document', extra, async (facts, hints) => {
        const { path, url, data, filename, password, maxTokens, overlapTokens, tokenizer, start, limit, ...options } =
          args;
        const formats = [{ type: 'chunks', maxTokens, overlapTokens, tokenizer }];
        const parsed = await parseSource(
          { path, url, data, filename, password, timeout: options.timeout },
          { ...options, formats },
          facts,
          hints,
          extra,
        );
        return chunkResult(parsed, start, limit, cfg.maxResultChars);
      }),
  );

  server.registerTool(
    'list_formats',
    {
      title: 'List accepted formats',
      description: 'The file types docmill reads, what each family yields, and the output formats.',
      inputSchema: listFormatsInput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async () => {
      const list = formatList();
      const lines = list.families.map((f) => `${f.family} (${f.extensions.join(' ')}): ${f.yields}`);
      lines.push(`Images (${list.images.extensions.join(' ')}): ${list.images.yields}`);
      lines.push(
        `Outputs: ${Object.entries(list.formats)
          .map(([k, v]) => `${k} (${v})`)
          .join('; ')}`,
      );
      lines.push(list.detection);
      return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: list };
    },
  );

  return server;
}

interface Failure {
  status: number;
  code: string;
  message: string;
}

/**
 * A URL that could not be fetched (the server fetcher's ScrapeFailure: DNS, TLS, site), with its
 * own code; a name that does not resolve is the caller's mistake (400), the others the site's (502).
 */
function scrapeFailure(err: unknown): Failure | undefined {
  if (!(err instanceof Error) || err.name !== 'ScrapeFailure') return undefined;
  const code = String((err as { code?: unknown }).code);
  return { status: code === 'SCRAPE_DNS_RESOLUTION_ERROR' ? 400 : 502, code, message: err.message };
}

/** A failed call as the agent sees it: status, code and message, like the HTTP error body. */
function errorResult(e: Failure): CallToolResult {
  return {
    content: [{ type: 'text', text: `${e.status} ${e.code}: ${e.message}` }],
    isError: true,
  };
}
