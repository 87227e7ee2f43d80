import { type ChildProcess, spawn } from 'node:child_process';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { pdfOf } from '../../core/test/helpers/pdf-build.ts';

const WORDS =
  'river stone lantern copper meadow harbor violet signal timber orbit canvas ember glacier falcon quartz willow ledger prism summit anchor'.split(
    ' ',
  );

/**
 * A PDF of `pages` text pages, each with its own sentence: large enough that parsing it takes
 * seconds (a cancellation lands mid-parse), small on disk (≈ 250 bytes a page).
 */
export function manyPagePdf(pages: number): Uint8Array {
  const kids = Array.from({ length: pages }, (_, i) => `${4 + 2 * i} 0 R`).join(' ');
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  for (let i = 0; i < pages; i++) {
    // Different words at different heights on every page: nothing repeats as a running header.
    const w = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];
    const y = 700 - (i % 40) * 10;
    const content = `BT /F1 12 Tf 72 ${y} Td (${w(1)} ${w(2)} ${w(3)} ${w(4)} ${w(5)} ${w(6)}.) Tj 0 -16 Td (${w(7)} ${w(8)} ${w(9)} ${w(10)}.) Tj ET`;
    objs.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${5 + 2 * i} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    );
  }
  return pdfOf(objs);
}

export type LogRecord = Record<string, unknown>;

/** A connected SDK client and the server's JSON log lines. */
export interface Served {
  client: Client;
  logs: LogRecord[];
  /** Resolves with the first log record (seen or to come) that `match` accepts. */
  waitForLog(match: (r: LogRecord) => boolean): Promise<LogRecord>;
  close(): Promise<void>;
}

export interface ClientOptions {
  /** Announce roots (file:// URIs of these folders) to the server. */
  roots?: string[];
}

const cliBin = resolve(import.meta.dirname, '../../cli/src/bin.ts');
/** tsx's loader by file URL: the CLI runs from folders where `--import tsx` would not resolve. */
const tsx = pathToFileURL(resolve(import.meta.dirname, '../../../node_modules/tsx/dist/loader.mjs')).href;

function logCollector() {
  const logs: LogRecord[] = [];
  const waiting: Array<{ match: (r: LogRecord) => boolean; done: (r: LogRecord) => void }> = [];
  let buf = '';
  return {
    logs,
    feed(chunk: string) {
      buf += chunk;
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let r: LogRecord;
        try {
          r = JSON.parse(line) as LogRecord;
        } catch {
          continue;
        }
        logs.push(r);
        for (const w of [...waiting]) {
          if (w.match(r)) {
            waiting.splice(waiting.indexOf(w), 1);
            w.done(r);
          }
        }
      }
    },
    waitForLog(match: (r: LogRecord) => boolean): Promise<LogRecord> {
      const seen = logs.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((done) => waiting.push({ match, done }));
    },
  };
}

function newClient(opts: ClientOptions): Client {
  const client = new Client(
    { name: 'docmill-test', version: '1.0.0' },
    opts.roots ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (opts.roots) {
    const roots = opts.roots.map((dir) => ({ uri: pathToFileURL(dir).href, name: basename(dir) }));
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
  }
  return client;
}

/** `docmill mcp <args>` started by the SDK's stdio transport, as a desktop agent starts it. */
export function stdioCli(args: string[], cwd: string, opts: ClientOptions = {}): Promise<Served> {
  return stdioServer({ command: process.execPath, args: ['--import', tsx, cliBin, 'mcp', ...args] }, cwd, opts);
}

/** Any MCP server command (an `mcpServers` entry of a client config), started over stdio. */
export async function stdioServer(
  entry: { command: string; args: string[]; env?: Record<string, string> },
  cwd: string,
  opts: ClientOptions = {},
): Promise<Served> {
  const transport = new StdioClientTransport({ ...entry, cwd, stderr: 'pipe' });
  const collector = logCollector();
  transport.stderr?.on('data', (d: Buffer) => collector.feed(d.toString()));
  const client = newClient(opts);
  await client.connect(transport);
  return { client, logs: collector.logs, waitForLog: collector.waitForLog, close: () => client.close() };
}

/** `docmill mcp --http --port 0 <args>` in a child process, and a client over Streamable HTTP. */
export async function httpCli(
  args: string[],
  cwd: string,
  opts: ClientOptions & { env?: NodeJS.ProcessEnv; headers?: Record<string, string> } = {},
): Promise<Served & { url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', tsx, cliBin, 'mcp', '--http', '--port', '0', ...args], {
    cwd,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collector = logCollector();
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => collector.feed(d.toString()));
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const listening = await Promise.race([
    collector.waitForLog((r) => r.msg === 'listening'),
    exited.then(() => {
      throw new Error(`docmill mcp --http exited before listening: ${stderr}`);
    }),
  ]);
  const url = String(listening.url);
  const client = newClient(opts);
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), opts.headers ? { requestInit: { headers: opts.headers } } : {}),
    );
  } catch (err) {
    child.kill('SIGTERM');
    await exited;
    throw err;
  }
  return {
    client,
    url,
    child,
    logs: collector.logs,
    waitForLog: collector.waitForLog,
    async close() {
      await client.close().catch(() => undefined);
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A tool result's text blocks, joined. */
export const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** Calls a tool with a timeout for a busy machine. */
export const callTool = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>;
