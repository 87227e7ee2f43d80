import { parseArgs } from 'node:util';
import { startParseWorker } from '@docmill/queue';
import { UsageError } from './args.ts';
import { makeEngine } from './engine.ts';
import type { CliIO } from './main.ts';
import { positiveInt, queueFlagSpecs, queueFlagsHelp, queueTarget } from './queue-flags.ts';

export const workerUsage = `Usage: docmill worker [flags]     take parse jobs from a Redis queue until SIGTERM/SIGINT

Run one per machine (or several); all share the queue. Logs are JSON lines on stdout, one per job,
without document content.

Flags (environment variable in brackets):
${queueFlagsHelp}
  --workers N                parse in a pool of N worker threads (OCR included); without it,
                             parses run in this process with the OCR stage
  --concurrency N            jobs this process runs at once, default: --workers, else 1
                             [DOCMILL_CONCURRENCY]
  --shutdown-timeout MS      on SIGTERM the worker exits within this, whatever Redis does;
                             in-flight jobs may finish until 2 s before it (a quarter of it when
                             shorter), then go back to the queue. Default 30000
  --lock-duration MS         a dead worker's jobs return to the queue after this, default 30000`;

/** How long a starting worker waits for Redis before it says that it is waiting. */
const WAIT_NOTICE_MS = 5_000;

/** `docmill worker`: runs until SIGTERM/SIGINT, then drains (or returns) in-flight jobs and exits 0. */
export async function worker(argv: string[], io: CliIO): Promise<number> {
  let v: Record<string, string | boolean | undefined>;
  try {
    v = parseArgs({
      args: argv,
      options: {
        ...queueFlagSpecs,
        concurrency: { type: 'string' },
        workers: { type: 'string' },
        'shutdown-timeout': { type: 'string' },
        'lock-duration': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (v.help) {
    io.stdout.write(`${workerUsage}\n`);
    return 0;
  }
  const target = queueTarget(v, process.env);
  const workers = v.workers === undefined ? undefined : positiveInt('--workers', v.workers, 1);
  if (workers !== undefined && workers > 64) throw new UsageError('--workers must be a whole number from 1 to 64.');
  // A pool of N threads is kept busy by N jobs at once; an in-process engine parses one at a time.
  const concurrency = positiveInt('--concurrency', v.concurrency ?? process.env.DOCMILL_CONCURRENCY, workers ?? 1);
  const shutdownMs = positiveInt('--shutdown-timeout', v['shutdown-timeout'], 30_000);
  const lockDuration = positiveInt('--lock-duration', v['lock-duration'], 30_000);
  const line = (record: object) => io.stdout.write(`${JSON.stringify(record)}\n`);
  const engine = await makeEngine(workers);
  // A worker waits for Redis as long as it takes (it may be restarting), but says so once.
  const waiting = setTimeout(
    () => io.stderr.write(`docmill worker: waiting for Redis (queue ${target.name}); retrying until it answers\n`),
    WAIT_NOTICE_MS,
  );
  const running = await startParseWorker({ ...target, engine, concurrency, lockDuration, log: line }).finally(() =>
    clearTimeout(waiting),
  );
  // The URL may carry a password: log only where the queue is.
  line({ msg: 'worker ready', time: new Date().toISOString(), queue: target.name, concurrency, workers: workers ?? 0 });
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      line({ msg: 'shutting down', time: new Date().toISOString(), signal, inFlight: running.inFlight });
      void running
        .close(shutdownMs)
        .then(() => engine.close())
        .then(resolve);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  line({ msg: 'stopped', time: new Date().toISOString() });
  return 0;
}
