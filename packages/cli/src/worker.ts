import { parseArgs } from 'node:util';
import { createEngine, llmConfigFromEnv } from '@docmill/core';
import { startParseWorker } from '@docmill/queue';
import { UsageError } from './args.ts';
import type { CliIO } from './main.ts';
import { positiveInt, queueFlagSpecs, queueFlagsHelp, queueTarget } from './queue-flags.ts';

export const workerUsage = `Usage: docmill worker [flags]     take parse jobs from a Redis queue until SIGTERM/SIGINT

Run one per machine (or several); all share the queue. Logs are JSON lines on stdout, one per job,
without document content.

Flags (environment variable in brackets):
${queueFlagsHelp}
  --concurrency N            jobs this process runs at once, default 1 [DOCMILL_CONCURRENCY]
  --shutdown-timeout MS      on SIGTERM, how long in-flight jobs may finish before they are
                             handed back to the queue, default 30000
  --lock-duration MS         a dead worker's jobs return to the queue after this, default 30000`;

/** `docmill worker`: runs until SIGTERM/SIGINT, then drains (or returns) in-flight jobs and exits 0. */
export async function worker(argv: string[], io: CliIO): Promise<number> {
  let v: Record<string, string | boolean | undefined>;
  try {
    v = parseArgs({
      args: argv,
      options: {
        ...queueFlagSpecs,
        concurrency: { type: 'string' },
        'shutdown-timeout': { type: 'string' },
        'lock-duration': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${workerUsage}`);
  }
  if (v.help) {
    io.stdout.write(`${workerUsage}\n`);
    return 0;
  }
  const target = queueTarget(v, process.env);
  const concurrency = positiveInt('--concurrency', v.concurrency ?? process.env.DOCMILL_CONCURRENCY, 1);
  const shutdownMs = positiveInt('--shutdown-timeout', v['shutdown-timeout'], 30_000);
  const lockDuration = positiveInt('--lock-duration', v['lock-duration'], 30_000);
  const line = (record: object) => io.stdout.write(`${JSON.stringify(record)}\n`);
  const llm = llmConfigFromEnv(process.env);
  const engine = createEngine(llm ? { llm } : {});
  const running = await startParseWorker({ ...target, engine, concurrency, lockDuration, log: line });
  // The URL may carry a password: log only where the queue is.
  line({ msg: 'worker ready', time: new Date().toISOString(), queue: target.name, concurrency });
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
