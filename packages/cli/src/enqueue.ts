import { parseArgs } from 'node:util';
import { openParseQueue, queueEngine } from '@docmill/queue';
import { parseCli, parseHelp, UsageError } from './args.ts';
import { type CliIO, runParseCommand } from './main.ts';
import { positiveInt, queueFlagSpecs, queueFlagsHelp, queueTarget } from './queue-flags.ts';

export const enqueueUsage = `Usage: docmill enqueue <file|dir> [flags]   parse through the queue's workers

Submits the file (or every file of the folder) as jobs and writes the results exactly as
"docmill parse" does; a folder needs --out. A progress bar over jobs (with the pages of the
file in flight, as its worker reports them) shows on a terminal.

Flags:
${queueFlagsHelp}
  --in-flight N              jobs of a folder on the queue at once, default 16
  --outage-timeout MS        how long files in flight ride out a lost Redis (a restart) and then
                             get their results; past it they fail with 503. Default 60000
  --attempts N               tries for unknown (5xx) failures, default 3
and every "docmill parse" flag but --workers (the queue's workers parse; see "docmill worker"):
${parseHelp.slice(parseHelp.indexOf('Flags:\n') + 'Flags:\n'.length).replace(/ {2}--workers N .*\n.*\n/, '')}`;

/** Splits argv into our queue flags and the parse command's own flags. */
function split(argv: string[]): { ours: string[]; rest: string[] } {
  const names = new Set(['--redis', '--queue', '--prefix', '--in-flight', '--attempts', '--outage-timeout']);
  const ours: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const name = a.split('=')[0] as string;
    if (!names.has(name)) rest.push(a);
    else if (a.includes('=')) ours.push(a);
    else ours.push(a, argv[++i] ?? '');
  }
  return { ours, rest };
}

/** `docmill enqueue`: the parse command over `queueEngine`, with several folder files in flight. */
export async function enqueue(argv: string[], io: CliIO): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(`${enqueueUsage}\n`);
    return 0;
  }
  const { ours, rest } = split(argv);
  let v: Record<string, string | boolean | undefined>;
  try {
    v = parseArgs({
      args: ours,
      options: {
        ...queueFlagSpecs,
        'in-flight': { type: 'string' },
        attempts: { type: 'string' },
        'outage-timeout': { type: 'string' },
      },
    }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const cmd = parseCli(['parse', ...rest]);
  // Submitting takes no threads; silently ignoring the flag would hide where the parsing happens.
  if (cmd.workers !== undefined)
    throw new UsageError('--workers sets parse threads on "docmill worker"; enqueue submits --in-flight jobs at once.');
  if (!cmd.target) throw new UsageError('missing file or folder.');
  const target = queueTarget(v, process.env);
  const inFlight = positiveInt('--in-flight', v['in-flight'], 16);
  const q = openParseQueue({
    ...target,
    attempts: positiveInt('--attempts', v.attempts, 3),
    outageTimeoutMs: positiveInt('--outage-timeout', v['outage-timeout'], 60_000),
  });
  try {
    return await runParseCommand({ ...cmd, target: cmd.target }, io, queueEngine(q), inFlight);
  } finally {
    await q.close();
  }
}
