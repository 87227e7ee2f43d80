import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../src/args.ts';

const root = resolve(import.meta.dirname, '../../..');
const bin = join(root, 'packages/cli/src/bin.ts');
const run = async (...args: string[]) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', bin, ...args], {
      cwd: root,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
};

describe('argument parsing', () => {
  it('turns sugar flags into ParseOptions merged over --options', () => {
    const c = parseCli([
      'parse',
      'a.pdf',
      '--options',
      '{"timeout":5000,"parsers":[{"type":"pdf","pages":true}]}',
      '--formats',
      'markdown,links',
      '--pdf-mode',
      'fast',
      '--max-pages',
      '3',
      '--redact-pii=aggressive',
      '--no-main-content',
    ]);
    expect(c).toMatchObject({ command: 'parse', target: 'a.pdf', json: false });
    expect(c.options).toEqual({
      timeout: 5000,
      formats: ['markdown', 'links'],
      parsers: [{ type: 'pdf', pages: true, mode: 'fast', maxPages: 3 }],
      redactPII: { mode: 'aggressive' },
      onlyMainContent: false,
    });
    expect(parseCli(['parse', 'x', '--redact-pii']).options.redactPII).toBe(true);
  });
  it('rejects invalid --options JSON', () => {
    expect(() => parseCli(['parse', 'x', '--options', '{nope'])).toThrow(/Invalid JSON/);
    expect(() => parseCli(['parse', 'x', '--options', '[1]'])).toThrow(/JSON object/);
  });
});

describe('docmill parse', () => {
  it('opens an encrypted document with --password, and says so without it', async () => {
    expect(parseCli(['parse', 'x.docx', '--password', 'pw']).password).toBe('pw');
    const ok = await run('parse', 'fixtures/docx/password.docx', '--password', 'Tr0ub4dor&3');
    expect(ok.code).toBe(0);
    expect(ok.stdout.startsWith('# Field report')).toBe(true);
    const refused = await run('parse', 'fixtures/docx/password.docx');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--password/);
  }, 60_000);

  it('prints the Markdown of the README sample', async () => {
    const r = await run('parse', 'fixtures/samples/quarterly-report.html');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        '# Quarterly report',
        '',
        'Revenue grew **12%** on the [third quarter](https://example.com/q3).',
        '',
        '## Highlights',
        '',
        '- New customers in two regions',
        '- Costs held flat',
        '  1. Hosting',
        '  2. Support',
        '',
        '| Region | Q2 | Q3 |',
        '| --- | --- | --- |',
        '| North | 1.2 | 1.4 |',
        '| South | 0.8 | 0.9 |',
        '',
      ].join('\n'),
    );
  });
  it('--json prints the full response', async () => {
    const r = await run('parse', 'fixtures/samples/quarterly-report.html', '--json', '--formats', 'markdown,links');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.success).toBe(true);
    expect(body.data.metadata).toMatchObject({ title: 'Quarterly report', language: 'en', contentType: 'text/html' });
    expect(body.data.links).toContain('https://example.com/q3');
  });
  it('exits 1 with a JSON error body for a 4xx problem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docmill-cli-'));
    writeFileSync(join(dir, 'notes.txt'), 'plain text');
    const r = await run('parse', join(dir, 'notes.txt'));
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr.trim())).toMatchObject({ success: false, code: 'UNSUPPORTED_FILE_TYPE' });
    const bad = await run('parse', 'fixtures/samples/quarterly-report.html', '--options', '{"timeout":1}');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr.trim())).toMatchObject({ code: 'BAD_REQUEST' });
  });
  it('converts a folder with a summary line', async () => {
    const out = mkdtempSync(join(tmpdir(), 'docmill-out-'));
    const r = await run('parse', 'fixtures/samples', '--out', out);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/files: \d+ {2}pages: \d+ {2}errors: 0/);
    expect(readFileSync(join(out, 'quarterly-report.html.md'), 'utf8')).toContain('# Quarterly report');
  });
});
