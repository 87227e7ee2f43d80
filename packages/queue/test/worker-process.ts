// A worker child process for the tests: the real engine, whose CSV adapter is slowed down so a
// test can kill the process mid-parse. Prints "ready" and one line per started job on stdout.
import { createEngine } from '@docmill/core';
import { adapter as csv } from '../../core/src/adapters/csv/index.ts';
import { startParseWorker } from '../src/index.ts';

const [url, name, delay, grace = '5000'] = process.argv.slice(2) as [string, string, string, string?];
const engine = createEngine({
  adapters: {
    csv: {
      ...csv,
      async parse(bytes, ctx) {
        process.stdout.write(`started ${process.pid}\n`);
        await new Promise((r) => setTimeout(r, Number(delay)));
        return csv.parse(bytes, ctx);
      },
    },
  },
});
const worker = await startParseWorker({ redis: url, name, engine, lockDuration: 1000, stalledInterval: 500 });
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void worker.close(Number(grace)).then(() => process.exit(0));
});
