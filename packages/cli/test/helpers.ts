import { resolve } from 'node:path';
import { type CliStream, main } from '../src/main.ts';

export const root = resolve(import.meta.dirname, '../../..');

export function sink(isTTY = false): CliStream & { text(): string } {
  const chunks: string[] = [];
  return { isTTY, columns: 100, write: (s: string) => chunks.push(s), text: () => chunks.join('') };
}

/** Runs the CLI in this process with captured output; paths relative to the repository root. */
export async function cli(argv: string[], opts: { cwd?: string; tty?: boolean } = {}) {
  const stdout = sink();
  const stderr = sink(opts.tty);
  // A clock that moves 250 ms per reading: past the bar's show delay and redraw interval.
  let t = 0;
  const now = () => (t += 250);
  const code = await main(argv, { stdout, stderr, cwd: opts.cwd ?? root, now });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
