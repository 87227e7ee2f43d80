import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServeArgs } from '../src/serve.ts';

const root = resolve(import.meta.dirname, '../../..');
const bin = join(root, 'packages/cli/src/bin.ts');

describe('docmill serve arguments', () => {
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
});

function firstLine(child: ChildProcess): Promise<Record<string, unknown>> {
  return new Promise((done, fail) => {
    let buf = '';
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) done(JSON.parse(buf.slice(0, nl)));
    });
    child.once('exit', (code) => fail(new Error(`exited ${code} before listening`)));
  });
}

describe('docmill serve process', () => {
  it('listens on a free loopback port, serves /health and drains on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', bin, 'serve', '--port', '0'], {
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
