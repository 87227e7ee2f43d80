import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pnpmCommand } from '../../../scripts/packages.ts';
import { readmeBlock, readmeBlocks } from '../../../scripts/readme.ts';
import { type CliStream, main } from '../src/main.ts';
import { firstLine } from './child.ts';

// The README's CLI commands as a user copies them: through pnpm, from the workspace root.
const root = resolve(import.meta.dirname, '../../..');
const exec = promisify(execFile);
const sample = 'fixtures/samples/quarterly-report.html';

/** The CLI in this process: the reference for what the command prints. */
async function inProcess(argv: string[]): Promise<string> {
  const chunks: string[] = [];
  const stream: CliStream = { isTTY: false, columns: 100, write: (s: string) => chunks.push(s) };
  const code = await main(argv, { stdout: stream, stderr: { ...stream, write: () => true }, cwd: root });
  expect(code).toBe(0);
  return chunks.join('');
}

/** A fresh, empty $TMPDIR for a child, removed after `body`. */
async function withTmp<T>(body: (tmp: string) => Promise<T>): Promise<T> {
  const tmp = mkdtempSync(join(tmpdir(), 'docmill-readme-tmp-'));
  try {
    return await body(tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const docmillLines = () =>
  readmeBlocks()
    .filter((b) => b.lang === 'sh')
    .flatMap((b) => b.code.split('\n'))
    .flatMap((line) => line.split('&&').map((part) => part.trim()))
    .filter((cmd) => /\bpnpm(@10)?\s.*\bdocmill\b/.test(cmd));

describe('README commands', () => {
  it('run docmill through pnpm silently, so stdout holds only what docmill prints', () => {
    const lines = docmillLines();
    expect(lines.length).toBeGreaterThan(15);
    expect(lines.filter((l) => !/\bpnpm(@10)? -s docmill /.test(l))).toEqual([]);
  });

  it('pins the Firecrawl SDK at the version the server tests run on this Node', () => {
    const server = JSON.parse(readFileSync(join(root, 'packages/server/package.json'), 'utf8'));
    const tested = server.devDependencies['@mendable/firecrawl-js'];
    expect(readmeBlocks().some((b) => b.code === `npm i @mendable/firecrawl-js@${tested}\n`)).toBe(true);
  });

  it('the quick start prints the sample Markdown and nothing else', async () => {
    const quick = readmeBlock('docmill', 'sh').split('\n')[0]?.split('&&')[1]?.trim() ?? '';
    expect(quick).toBe(`npx -y pnpm@10 -s docmill parse ${sample}`);
    const { stdout } = await exec('sh', ['-c', quick], { cwd: root });
    expect(stdout).toBe(await inProcess(['parse', sample]));
  });

  it('--json through pnpm is JSON on stdout, and the CLI writes nothing to $TMPDIR', async () => {
    const [cmd, pre] = pnpmCommand();
    await withTmp(async (tmp) => {
      const { stdout } = await exec(cmd, [...pre, '-s', 'docmill', 'parse', sample, '--json'], {
        cwd: root,
        env: { ...process.env, TMPDIR: tmp },
      });
      expect(JSON.parse(stdout)).toMatchObject({ success: true, data: { metadata: { title: 'Quarterly report' } } });
      // tsx's transpile cache would be $TMPDIR/tsx-<uid>/…: `pnpm docmill` runs with it off.
      expect(readdirSync(tmp)).toEqual([]);
    });
  });

  it('a Redis password never reaches the output through pnpm -s (pnpm alone echoes the command line)', async () => {
    const [cmd, pre] = pnpmCommand();
    const argv = ['docmill', 'enqueue', 'fixtures/samples', '--redis', 'redis://:hunter2@127.0.0.1:9', '--bogus'];
    const output = (args: string[]) =>
      exec(cmd, [...pre, ...args], { cwd: root }).then(
        () => 'exit 0',
        (e: { code: number; stdout: string; stderr: string }) => `exit ${e.code}\n${e.stdout}\n${e.stderr}`,
      );
    const silent = await output(['-s', ...argv]);
    expect(silent).toMatch(/^exit 2\n/);
    expect(silent).not.toContain('hunter2');
    expect(await output(argv)).toContain('hunter2'); // why every README line has -s
  });

  it('docmill serve through pnpm answers a parse and exits on SIGTERM, with nothing written to $TMPDIR', async () => {
    const [cmd, pre] = pnpmCommand();
    await withTmp(async (tmp) => {
      // Its own process group: SIGTERM reaches the server under pnpm, as a terminal's Ctrl-C would.
      const child = spawn(cmd, [...pre, '-s', 'docmill', 'serve', '--port', '0', '--workers', '1'], {
        cwd: root,
        env: { ...process.env, TMPDIR: tmp },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      try {
        const listening = await firstLine(child);
        expect(listening).toMatchObject({ msg: 'listening' });
        const body = new FormData();
        body.set('file', new Blob([readFileSync(join(root, sample))]), 'q.html');
        const res = await fetch(`${String(listening.url)}/v2/parse`, { method: 'POST', body });
        expect(res.status).toBe(200);
        const { data } = (await res.json()) as { data: { markdown: string } };
        expect(data.markdown).toBe(await inProcess(['parse', sample]));
      } finally {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
        await exited;
      }
      expect(readdirSync(tmp)).toEqual([]);
    });
  });
});
