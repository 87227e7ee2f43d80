import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServeArgs } from '../src/serve.ts';
import { firstLine } from './child.ts';

const root = resolve(import.meta.dirname, '../../..');
const bin = join(root, 'packages/cli/src/bin.ts');

describe('docmill serve arguments', () => {
  it('parses in worker threads by default, one parse per worker; --workers 0 keeps parses in-process', () => {
    const pooled = parseServeArgs(['--workers', '3'], {});
    expect([pooled.workers, pooled.config.concurrency]).toEqual([3, 3]);
    expect(parseServeArgs([], {}).workers).toBeGreaterThanOrEqual(1);
    const inline = parseServeArgs([], { DOCMILL_WORKERS: '0' });
    expect([inline.workers, inline.config.concurrency]).toEqual([0, availableParallelism()]);
  });
  it('refuses a non-loopback host without keys unless --no-auth', () => {
    expect(() => parseServeArgs(['--host', '0.0.0.0'], {})).toThrow(/Refusing to serve 0\.0\.0\.0 without API keys/);
    expect(parseServeArgs(['--host', '0.0.0.0', '--no-auth'], {}).config.keys).toEqual([]);
    expect(parseServeArgs([], {}).host).toBe('127.0.0.1');
  });

  it('reads keys from DOCMILL_API_KEYS and a JSON keys file with quotas; flags beat env', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docmill-keys-'));
    const file = join(dir, 'keys.json');
    writeFileSync(file, JSON.stringify([{ id: 'ops', key: 'k-ops', pageQuota: 500 }]));
    const s = parseServeArgs(['--host', '0.0.0.0', '--keys-file', file, '--port', '4000', '--rate', '0'], {
      DOCMILL_API_KEYS: 'team-a:k-a,k-b',
      DOCMILL_PORT: '5000',
    });
    expect(s.port).toBe(4000);
    expect(s.config.keys).toEqual([
      { id: 'team-a', key: 'k-a' },
      { id: 'key-2', key: 'k-b' },
      { id: 'ops', key: 'k-ops', pageQuota: 500 },
    ]);
    expect(s.config.rateLimit).toBe(false);
    expect(s.config.scrape?.allowPrivateNetworks).toBe(false);
    const allow = parseServeArgs([], { DOCMILL_SCRAPE_ALLOW_PRIVATE: '10.1.0.0/16, 127.0.0.1' });
    expect(allow.config.scrape?.allowPrivateNetworks).toEqual(['10.1.0.0/16', '127.0.0.1']);
    expect(parseServeArgs(['--allow-private-networks'], {}).config.scrape?.allowPrivateNetworks).toBe(true);
    expect(parseServeArgs([], { PORT: '8080' }).port).toBe(8080);
    expect(() => parseServeArgs(['--port', 'x'], {})).toThrow(/--port/);
  });

  it('takes the upload limits: slots, body pause and minimum rate', () => {
    const d = parseServeArgs([], {}).config;
    expect([d.maxUploads, d.bodyTimeoutMs, d.minBodyRate]).toEqual([undefined, 10_000, 65_536]);
    const s = parseServeArgs(['--max-uploads', '20', '--body-timeout', '5000'], { DOCMILL_MIN_BODY_RATE: '1024' });
    expect([s.config.maxUploads, s.config.bodyTimeoutMs, s.config.minBodyRate]).toEqual([20, 5000, 1024]);
  });
});

describe('docmill serve process', () => {
  it('listens on a free loopback port, serves /health and drains on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', bin, 'serve', '--port', '0', '--workers', '1'], {
      cwd: root,
      env: { ...process.env, DOCMILL_API_KEYS: 'k1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    try {
      const listening = await firstLine(child);
      expect(listening).toMatchObject({ msg: 'listening', keys: 1, auth: true });
      const url = String(listening.url);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await fetch(`${url}/health`);
      expect(await health.json()).toMatchObject({ status: 'ok' });
      expect((await fetch(`${url}/v1/deep-research/x`)).status).toBe(401);
      // The parse runs in the worker thread and comes back as the fixture's Markdown.
      const form = new FormData();
      form.append('options', JSON.stringify({ formats: ['markdown'] }));
      form.append('file', new Blob([readFileSync(join(root, 'fixtures/pdf/basic.pdf'))]), 'basic.pdf');
      const parsed = await fetch(`${url}/v2/parse`, {
        method: 'POST',
        headers: { authorization: 'Bearer k1' },
        body: form,
      });
      const body = (await parsed.json()) as { success: boolean; data: { markdown: string } };
      expect(body.success).toBe(true);
      expect(body.data.markdown).toContain('# Docmill Fixture\n\nThe quick brown fox');
      const exited = new Promise<number | null>((r) => child.once('exit', r));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toContain('"msg":"stopped"');
      expect(out).toContain('"status":401');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
