import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import {
  DocmillError,
  type Engine,
  normalizeOptions,
  type ParseOptions,
  toDocmillError,
  withPasswordHint,
} from '@docmill/core';
import { readFileInput } from '@docmill/core/platform/node';
import { type CliCommand, helpFor, parseCli, UsageError, usage, usageError } from './args.ts';
import { makeEngine } from './engine.ts';
import { convertFolder, summaryText } from './folder.ts';
import { CLI_PASSWORD_HINT, type OutputFormat, renderOutput, warningLines } from './output.ts';
import { fileProgress, folderProgress } from './progress.ts';
import { jsonProgress } from './progress-json.ts';

export interface CliStream {
  write(s: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIO {
  stdout: CliStream;
  stderr: CliStream;
  /** The directory relative paths are resolved against (see `callerDir`). */
  cwd: string;
  /** Milliseconds clock for progress rates (tests pass a fake one). */
  now?: () => number;
}

/**
 * The directory the user typed the command in. pnpm and npm run scripts from the package root
 * and put the caller's directory in INIT_CWD; trust it only when we were started by such a
 * script from that root, so a script that `cd`s elsewhere first keeps its own cwd.
 */
export function callerDir(env: NodeJS.ProcessEnv, cwd: string): string {
  const { INIT_CWD, npm_lifecycle_event, npm_package_json } = env;
  if (INIT_CWD && npm_lifecycle_event && npm_package_json && resolve(dirname(npm_package_json)) === resolve(cwd))
    return INIT_CWD;
  return cwd;
}

const outputFormats = new Set<string>(['markdown', 'html', 'rawHtml', 'links', 'images', 'summary', 'json', 'chunks']);

/** The requested formats in the order given (validated by core before any output). */
function formatsOf(options: ParseOptions): OutputFormat[] {
  const resolved = normalizeOptions(options).formats;
  const order = (options.formats ?? ['markdown']).map((f) => (typeof f === 'string' ? f : f.type));
  return [...new Set(order)].filter((f): f is OutputFormat => outputFormats.has(f) && resolved.has(f as never));
}

/** Runs one CLI invocation; returns the exit code (0 ok, 1 request/document at fault, 2 otherwise). */
export async function main(argv: string[], io: CliIO): Promise<number> {
  if (argv[0] === 'serve') return runServe(argv.slice(1), io);
  if (argv[0] === 'mcp') return runMcp(argv.slice(1), io);
  if (argv[0] === 'worker' || argv[0] === 'enqueue') return runQueueCommand(argv[0], argv.slice(1), io);
  let cmd: ReturnType<typeof parseCli>;
  try {
    cmd = parseCli(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(
      usageError(
        err.message,
        argv.find((a) => !a.startsWith('-')),
      ),
    );
    return 2;
  }
  if (cmd.command === 'help' || cmd.help) {
    io.stdout.write(`${helpFor(cmd.command === 'help' ? cmd.target : cmd.command)}\n`);
    return 0;
  }
  if (!cmd.command) {
    io.stderr.write(`${usage}\n`); // a bare `docmill`: the commands are the answer
    return 2;
  }
  if (!cmd.target) {
    io.stderr.write(usageError('missing file or folder.', cmd.command));
    return 2;
  }
  // A path that is not there fails in runParseCommand, with the engine's error shape.
  const oneDocument = !(await stat(resolve(io.cwd, cmd.target)).catch(() => undefined))?.isDirectory();
  const engine = await makeEngine(cmd.workers, oneDocument);
  try {
    return await runParseCommand({ ...cmd, target: cmd.target }, io, engine, cmd.workers ?? 1);
  } finally {
    await engine.close();
  }
}

/**
 * The parse command's work on any engine: `docmill enqueue` runs it over the queue's adapter, with
 * `inFlight` files of a folder submitted at once. Prints results exactly as `docmill parse` does.
 */
export async function runParseCommand(
  cmd: CliCommand & { target: string },
  io: CliIO,
  engine: Pick<Engine, 'parse'>,
  inFlight = 1,
): Promise<number> {
  const now = io.now ?? (() => performance.now());
  try {
    // `docmill chunk` prints the chunks alone; the other formats it was given are for --json.
    const formats: OutputFormat[] = cmd.command === 'chunk' ? ['chunks'] : formatsOf(cmd.options);
    const target = resolve(io.cwd, cmd.target);
    const st = await stat(target).catch(() => undefined);
    if (!st) throw new DocmillError(400, 'BAD_REQUEST', `No such file or folder: ${cmd.target}`);
    if (st.isDirectory()) {
      if (!cmd.out) {
        io.stderr.write(usageError('converting a folder needs --out <dir>.', 'parse'));
        return 2;
      }
      const job = {
        src: target,
        out: resolve(io.cwd, cmd.out),
        options: cmd.options,
        ...(cmd.password ? { password: cmd.password } : {}),
        formats,
        json: cmd.json,
        concurrency: inFlight,
      };
      if (cmd.progress) {
        // Every stderr line is an event: warnings and errors travel in the files' "done" events.
        const events = jsonProgress(io.stderr, now);
        const summary = await convertFolder(engine, { ...job, stderr: { write() {} }, onFile: events.onFile });
        events.summary(summary);
        return summary.errors ? 1 : 0;
      }
      const progress = folderProgress(io.stderr, now);
      const summary = await convertFolder(engine, {
        ...job,
        // Warnings and errors take the status line's place; the next file redraws it.
        stderr: {
          write: (s: string) => {
            if (!s) return;
            progress.clear();
            io.stderr.write(s);
          },
        },
        onFile: progress.onFile,
        onProgress: progress.onProgress,
      });
      progress.clear();
      io.stderr.write(summaryText(summary));
      return summary.errors ? 1 : 0;
    }
    const { bytes, hints } = await readFileInput(target);
    const progress = fileProgress(io.stderr, now);
    const data = await engine
      .parse(bytes, cmd.options, {
        ...hints,
        onProgress: progress.onProgress,
        ...(cmd.password ? { password: cmd.password } : {}),
      })
      .finally(() => progress.clear());
    if (cmd.json) {
      io.stdout.write(`${JSON.stringify({ success: true, data }, null, 2)}\n`);
      return 0;
    }
    io.stderr.write(warningLines(data.warning));
    io.stdout.write(renderOutput(data, formats, basename(target)));
    return 0;
  } catch (err) {
    const e = toDocmillError(withPasswordHint(err, CLI_PASSWORD_HINT));
    // The status tells a 503 (Redis away: try again) from a 500, which share the code UNKNOWN_ERROR.
    io.stderr.write(`${JSON.stringify({ ...e.toJSON(), status: e.status })}\n`);
    return e.status >= 400 && e.status < 500 ? 1 : 2;
  }
}

/** `docmill serve` runs until SIGTERM/SIGINT; its usage errors exit 2 like the parse command's. */
async function runServe(argv: string[], io: CliIO): Promise<number> {
  try {
    // Loaded on demand: parsing never pays for the HTTP server's modules.
    const { serve } = await import('./serve.ts');
    await serve(argv);
    return 0;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(usageError(err.message, 'serve'));
    return 2;
  }
}

/** `docmill mcp`, loaded on demand like serve: only it loads the MCP SDK. */
async function runMcp(argv: string[], io: CliIO): Promise<number> {
  try {
    const { mcp } = await import('./mcp.ts');
    return await mcp(argv, io);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`docmill mcp: ${err.message}\n`);
    return 2;
  }
}

/** `docmill worker` and `docmill enqueue`, loaded on demand like serve: only they load BullMQ. */
async function runQueueCommand(command: 'worker' | 'enqueue', argv: string[], io: CliIO): Promise<number> {
  try {
    if (command === 'worker') {
      const { worker } = await import('./worker.ts');
      return await worker(argv, io);
    }
    const { enqueue } = await import('./enqueue.ts');
    return await enqueue(argv, io);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(usageError(err.message, command));
    return 2;
  }
}
