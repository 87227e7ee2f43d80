import { parseArgs } from 'node:util';
import type { ParseOptions } from '@docmill/core';

export interface CliCommand {
  command: string | undefined;
  target: string | undefined;
  out: string | undefined;
  json: boolean;
  help: boolean;
  /** Folder runs: JSON lines on stderr per file started and finished, then the summary. */
  progress: boolean;
  /** Parse in this many worker threads (a document each); undefined parses on the main thread. */
  workers: number | undefined;
  options: ParseOptions;
  /** Password of an encrypted document (ParseHints.password). */
  password?: string;
}

export class UsageError extends Error {}

export const parseHelp = `Usage:
  docmill parse <file> [flags]             print the document as Markdown (or --formats / --json)
  docmill parse <dir> --out <dir> [flags]  convert a folder, one file per document, with a summary

Paths are relative to the directory you run the command from.

Flags:
  --json                     print {success, data} instead of the formats themselves
  --options '<json>'         ParseOptions, same schema as POST /v2/parse
  --formats a,b              markdown, html, rawHtml, links, images, summary, json, chunks; without --json
                             each prints as itself (HTML as HTML, links one per line)
  --pdf-mode fast|auto|ocr   PDF parser mode
  --max-pages N              PDF page cap
  --redact-pii[=mode]        redact PII (accurate, aggressive, fast)
  --no-main-content          keep headers, navigation and footers
  --password <pw>            password of an encrypted document
  --out <dir>                output folder for folder conversion
  --progress                 folder runs: stderr as JSON lines, one per file started and one per
                             file finished (pages, ms, warning or error), then the summary
  --timeout MS               give up after MS milliseconds per document (default 30000, the
                             contract's; OCR of a long scan needs more)
  --workers N                N worker threads: a folder's documents N at a time; one
                             document's scanned pages N at a time
  -h, --help                 this help

Warnings go to stderr as "warning: ..." lines. Exit codes: 0 success, 1 the request or the
document was at fault, 2 anything else (including a usage error).`;

export const chunkHelp = `Usage:
  docmill chunk <file> [flags]             print the document's chunks as JSON Lines
  docmill chunk <dir> --out <dir> [flags]  write <name>.jsonl per document, with a summary

One chunk per line: {"source", "id", "text", "tokens", "headings", "type", and where the format has
them "pages", "sheet", "chapter", "bbox"}; "source" is the file name (the path inside <dir>).
Every chunk fits the budget by the tokenizer's own count; a heading starts a chunk, a table is cut
by rows with its header row repeated, text at sentences.

Flags:
  --max-tokens N             most tokens per chunk (default 512, 16 to 65536)
  --overlap N                tokens of the previous chunk repeated at the start (default 0)
  --tokenizer NAME           o200k_base (default) or cl100k_base
  --json                     print {success, data} with data.chunks instead
  --formats a,b              also ask for these formats (with --json; markdown gives offsets)
  and the parse flags: --options, --pdf-mode, --max-pages, --password, --timeout, --workers,
  --redact-pii, --no-main-content (docmill parse --help)`;

export const usage = `Usage: docmill <command> [flags]

Commands:
  parse <file|dir>   parse a document, or convert a folder, to Markdown, HTML, links or JSON
  chunk <file|dir>   cut documents into chunks for embedding, as JSON Lines (docmill chunk --help)
  serve              HTTP server for POST /v2/parse (docmill serve --help)
  mcp                MCP server for agents, stdio or HTTP (docmill mcp --help)
  worker             run parse jobs from a Redis queue (docmill worker --help)
  enqueue <file|dir> parse through the queue's workers, output as parse (docmill enqueue --help)
  help [command]     show help for a command

Run "docmill parse --help" for the flags.`;

const commands = new Set(['parse', 'chunk', 'serve', 'help']);

/**
 * A usage error as printed: the one thing that is wrong and where the flags are listed, not the
 * whole help (which buries the message).
 */
export function usageError(message: string, command: string | undefined): string {
  const known = command !== undefined && ['parse', 'chunk', 'serve', 'worker', 'enqueue'].includes(command);
  const prefix = known && command !== 'parse' ? `docmill ${command}` : 'docmill';
  const hint = known ? `Run "docmill ${command} --help" for its flags.` : 'Run "docmill --help" for the commands.';
  return `${prefix}: ${message}\n${hint}\n`;
}

/** Help text for a command, or the general usage. */
export function helpFor(command: string | undefined): string {
  return command === 'parse' ? parseHelp : command === 'chunk' ? chunkHelp : usage;
}

const CHUNK_FLAGS = { 'max-tokens': 'maxTokens', overlap: 'overlapTokens', tokenizer: 'tokenizer' } as const;

/**
 * `docmill chunk`: the `chunks` format (its settings from `--options` when given there, the flags
 * over them) after any other format asked for. Numbers are checked by core, which names the range.
 */
function chunkFormats(options: Record<string, unknown>, v: Record<string, string | boolean | undefined>): unknown[] {
  const given = Array.isArray(options.formats) ? (options.formats as unknown[]) : [];
  const isChunks = (f: unknown) =>
    f === 'chunks' || (typeof f === 'object' && f && (f as { type?: unknown }).type === 'chunks');
  const base = given.find((f) => typeof f === 'object' && isChunks(f)) as Record<string, unknown> | undefined;
  const spec: Record<string, unknown> = { ...base, type: 'chunks' };
  for (const [flag, key] of Object.entries(CHUNK_FLAGS)) {
    const value = v[flag];
    if (typeof value !== 'string') continue;
    spec[key] = key === 'tokenizer' || !/^\d+$/.test(value) ? value : Number(value);
  }
  return [...given.filter((f) => !isChunks(f)), spec];
}

/** Turns argv into a command with ParseOptions; sugar flags are merged over `--options`. */
export function parseCli(argv: string[]): CliCommand {
  // `--redact-pii` may stand alone or take `=mode`; parseArgs needs a value, so split it first.
  let redact: string | boolean | undefined;
  const rest = argv.filter((a) => {
    if (a === '--redact-pii') {
      redact = true;
      return false;
    }
    const m = /^--redact-pii=(.+)$/.exec(a);
    if (m) {
      redact = m[1] as string;
      return false;
    }
    return true;
  });
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        options: { type: 'string' },
        formats: { type: 'string' },
        'pdf-mode': { type: 'string' },
        'max-pages': { type: 'string' },
        'no-main-content': { type: 'boolean' },
        password: { type: 'string' },
        out: { type: 'string' },
        workers: { type: 'string' },
        timeout: { type: 'string' },
        progress: { type: 'boolean' },
        'max-tokens': { type: 'string' },
        overlap: { type: 'string' },
        tokenizer: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    // parseArgs' messages end with a hint about `--` that does not apply to our flags.
    throw new UsageError((err as Error).message.replace(/\. To specify a positional.*$/s, '.'));
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  let options: Record<string, unknown> = {};
  if (typeof v.options === 'string') {
    try {
      options = JSON.parse(v.options);
    } catch {
      throw new UsageError('Invalid JSON in --options. Provide a valid JSON string.');
    }
    if (!options || typeof options !== 'object' || Array.isArray(options)) {
      throw new UsageError('--options must be a JSON object.');
    }
  }
  if (typeof v.formats === 'string')
    options.formats = v.formats
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const pdfMode = v['pdf-mode'];
  const maxPages = v['max-pages'];
  if (typeof pdfMode === 'string' || typeof maxPages === 'string') {
    const parsers = Array.isArray(options.parsers) ? [...(options.parsers as unknown[])] : [];
    const idx = parsers.findIndex(
      (p) => p === 'pdf' || (typeof p === 'object' && p && (p as { type?: string }).type === 'pdf'),
    );
    const base = idx >= 0 && typeof parsers[idx] === 'object' ? { ...(parsers[idx] as object) } : { type: 'pdf' };
    const pdf: Record<string, unknown> = base;
    if (typeof pdfMode === 'string') pdf.mode = pdfMode;
    if (typeof maxPages === 'string') pdf.maxPages = /^\d+$/.test(maxPages) ? Number(maxPages) : maxPages;
    if (idx >= 0) parsers[idx] = pdf;
    else parsers.push(pdf);
    options.parsers = parsers;
  }
  // Milliseconds, as the contract's `timeout`; core checks the range and says it.
  if (typeof v.timeout === 'string') options.timeout = /^\d+$/.test(v.timeout) ? Number(v.timeout) : v.timeout;
  let workers: number | undefined;
  if (typeof v.workers === 'string') {
    if (!/^\d+$/.test(v.workers) || Number(v.workers) < 1 || Number(v.workers) > 64)
      throw new UsageError('--workers must be a whole number from 1 to 64.');
    workers = Number(v.workers);
  }
  if (redact !== undefined) options.redactPII = redact === true ? true : { mode: redact };
  if (v['no-main-content']) options.onlyMainContent = false;
  const [command, target, ...extra] = parsed.positionals;
  if (command !== undefined && !commands.has(command)) throw new UsageError(`Unknown command "${command}".`);
  if (command === 'chunk') options.formats = chunkFormats(options, v);
  else {
    const misplaced = Object.keys(CHUNK_FLAGS).find((f) => v[f] !== undefined);
    if (misplaced) throw new UsageError(`--${misplaced} belongs to docmill chunk.`);
  }
  if (extra.length) throw new UsageError(`Unexpected argument "${extra[0]}": give one file or folder.`);
  return {
    command,
    target,
    out: typeof v.out === 'string' ? v.out : undefined,
    json: v.json === true,
    help: v.help === true,
    progress: v.progress === true,
    workers,
    options: options as ParseOptions,
    ...(typeof v.password === 'string' ? { password: v.password } : {}),
  };
}
