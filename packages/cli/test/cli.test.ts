import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { pnpmCommand } from '../../../scripts/packages.ts';
import { parseCli } from '../src/args.ts';
import { engineShape } from '../src/engine.ts';
import { callerDir } from '../src/main.ts';
import { cli } from './helpers.ts';

const root = resolve(import.meta.dirname, '../../..');
const bin = join(root, 'packages/cli/src/bin.ts');
const temps: string[] = [];
/** A fresh folder under the OS temp dir, removed when this file's tests end. */
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The contract's longest parse timeout, for parses whose subject is not the timeout (OCR, a key derivation). */
const slowOk = ['--timeout', '300000'];

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
    // --timeout wins over --options, like every sugar flag.
    expect(parseCli(['parse', 'x', '--options', '{"timeout":5000}', '--timeout', '120000']).options.timeout).toBe(
      120000,
    );
  });
  it('--timeout out of the contract range is refused by core with its message', async () => {
    const r = await cli(['parse', 'fixtures/samples/quarterly-report.html', '--timeout', '999999']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr.trim())).toMatchObject({ code: 'BAD_REQUEST' });
    expect(r.stderr).toMatch(/timeout/);
  });
  it('rejects invalid --options JSON', () => {
    expect(() => parseCli(['parse', 'x', '--options', '{nope'])).toThrow(/Invalid JSON/);
    expect(() => parseCli(['parse', 'x', '--options', '[1]'])).toThrow(/JSON object/);
  });
});

describe('docmill parse', () => {
  it('opens an encrypted document with --password, and says so without it', async () => {
    expect(parseCli(['parse', 'x.docx', '--password', 'pw']).password).toBe('pw');
    const ok = await run('parse', 'fixtures/docx/password.docx', '--password', 'Tr0ub4dor&3', ...slowOk);
    expect(ok.code).toBe(0);
    expect(ok.stdout.startsWith('# Field report')).toBe(true);
    const refused = await run('parse', 'fixtures/docx/password.docx');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--password/);
  });

  it('tells a missing password from a wrong one and names --password, for every format', async () => {
    // Before: a PDF said the same with a wrong password as without one, and the hint named the
    // library's hints.password.
    for (const file of ['fixtures/pdf/encrypted.pdf', 'fixtures/ppt/password.ppt', 'fixtures/odt/password-aes.odt']) {
      const none = await cli(['parse', file]);
      expect(none.code).toBe(1);
      expect(JSON.parse(none.stderr).error).toMatch(
        /is password-protected and cannot be read without its password\. Pass its password with --password\.$/,
      );
      const wrong = await cli(['parse', file, '--password', 'not it']);
      expect(wrong.code).toBe(1);
      expect(JSON.parse(wrong.stderr).error).toMatch(
        /the password given does not open it\. Pass the right one with --password\.$/,
      );
      expect(wrong.stderr).not.toMatch(/hints\.password/);
    }
  }, 120_000);

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
    const dir = tempDir('docmill-cli-');
    writeFileSync(join(dir, 'notes.txt'), 'plain text');
    const r = await run('parse', join(dir, 'notes.txt'));
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr.trim())).toMatchObject({ success: false, code: 'UNSUPPORTED_FILE_TYPE' });
    const bad = await run('parse', 'fixtures/samples/quarterly-report.html', '--options', '{"timeout":1}');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr.trim())).toMatchObject({ code: 'BAD_REQUEST' });
  });
  it('converts a folder with a summary line', async () => {
    const out = tempDir('docmill-out-');
    const r = await run('parse', 'fixtures/samples', '--out', out);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^files: 1 {2}pages: 1 {2}errors: 0 {2}skipped: 0 /);
    expect(readFileSync(join(out, 'quarterly-report.html.md'), 'utf8')).toContain('# Quarterly report');
  });
});

describe('docmill parse --workers', () => {
  it('spreads one document over OCR threads and a folder over whole-document workers', () => {
    expect(engineShape(undefined, true)).toEqual({ pooled: false });
    expect(engineShape(undefined, false)).toEqual({ pooled: false });
    expect(engineShape(3, true)).toEqual({ pooled: false, ocrWorkers: 3 });
    expect(engineShape(3, false)).toEqual({ pooled: true, workers: 3 });
  });
  it('one scanned PDF with --workers 2 has every page read by OCR threads', async () => {
    const r = await cli([
      'parse',
      'fixtures/pdf/scanned.pdf',
      '--pdf-mode',
      'ocr',
      '--workers',
      '2',
      '--json',
      ...slowOk,
    ]);
    expect(r.code).toBe(0);
    const { data } = JSON.parse(r.stdout);
    expect(data.metadata).toMatchObject({ numPages: 2, ocrPages: 2 });
    expect(data.markdown).toContain('| Washers | W-33 | 900 | $0.02 |');
    expect(data.markdown).toContain('This second page has a real text layer.');
  });
});

/** A stream that records what is written; `isTTY` as a terminal would report it. */
const sample = 'fixtures/samples/quarterly-report.html';

describe('docmill parse output', () => {
  it('puts warnings on stderr as one "warning:" line while Markdown goes to stdout', async () => {
    const dir = tempDir('docmill-cli-');
    writeFileSync(join(dir, 'open.csv'), 'name,note\nAda,"never closed\nBob,x\n');
    const r = await cli(['parse', 'open.csv'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('| name | note |');
    expect(r.stderr).toBe(
      'warning: A quoted CSV field is never closed; its opening quote was read as an ordinary character.\n',
    );
  });
  it('prints a non-markdown format as itself without --json', async () => {
    const html = await cli(['parse', sample, '--formats', 'html']);
    expect(html.stdout).toMatch(/^<main>\n\s*<h1>Quarterly report<\/h1>/);
    expect(html.stdout).toContain('<td>1.4</td>');
    const links = await cli(['parse', sample, '--formats', 'links']);
    expect(links.stdout).toBe('/\n/reports\nhttps://example.com/q3\n'); // every link of the page, one per line
    const summary = await cli(['parse', sample, '--formats', 'summary']);
    expect(summary.stdout).toMatch(/^Revenue grew 12%.*\n$/); // the lead sentence, as plain text
    const json = await cli(['parse', sample, '--formats', 'json']);
    expect(JSON.parse(json.stdout)).toBeTypeOf('object');
    const both = await cli(['parse', sample, '--formats', 'links,markdown']);
    expect(both.stdout).toMatch(/^\/\n\/reports\nhttps:\/\/example.com\/q3\n\n# Quarterly report\n/);
    for (const r of [html, links, summary, both]) expect([r.code, r.stderr]).toEqual([0, '']);
    // Without a schema the extractor says what it did, on stderr like every warning.
    expect([json.code, json.stderr]).toEqual([0, expect.stringMatching(/^warning: No JSON schema was given/)]);
  });
  it('resolves paths against the caller directory', async () => {
    const r = await cli(['parse', 'samples/quarterly-report.html'], { cwd: join(root, 'fixtures') });
    expect(r.stdout).toMatch(/^# Quarterly report\n/);
    const missing = await cli(['parse', 'samples/quarterly-report.html']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No such file or folder: samples/quarterly-report.html');
  });
  it('takes the caller directory from INIT_CWD only when a package script started it at its root', () => {
    const script = { INIT_CWD: '/home/u/docs', npm_lifecycle_event: 'docmill', npm_package_json: '/repo/package.json' };
    expect(callerDir(script, '/repo')).toBe('/home/u/docs');
    expect(callerDir(script, '/repo/sub')).toBe('/repo/sub'); // the script cd'd somewhere first
    expect(callerDir({ INIT_CWD: '/elsewhere' }, '/repo')).toBe('/repo');
  });
  it('`pnpm docmill` from a subfolder reads paths relative to that folder', async () => {
    const [cmd, pre] = pnpmCommand();
    const { stdout } = await promisify(execFile)(
      cmd,
      [...pre, '--silent', 'docmill', 'parse', 'samples/quarterly-report.html'],
      {
        cwd: join(root, 'fixtures'),
      },
    );
    expect(stdout).toMatch(/^# Quarterly report\n/);
  });
});

describe('docmill usage', () => {
  it('unknown command or flag: the one wrong thing and where help is, nothing on stdout, exit 2', async () => {
    const cmd = await cli(['frobnicate', 'x.pdf']);
    expect(cmd).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docmill: Unknown command "frobnicate".\nRun "docmill --help" for the commands.\n',
    });
    const flag = await cli(['parse', sample, '--frob']);
    expect(flag).toEqual({
      code: 2,
      stdout: '',
      stderr: `docmill: Unknown option '--frob'.\nRun "docmill parse --help" for its flags.\n`,
    });
    const missing = await cli(['parse']);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      'docmill: missing file or folder.\nRun "docmill parse --help" for its flags.\n',
    ]);
    const folder = await cli(['parse', 'fixtures/samples']);
    expect([folder.code, folder.stderr]).toEqual([
      2,
      'docmill: converting a folder needs --out <dir>.\nRun "docmill parse --help" for its flags.\n',
    ]);
    const serve = await cli(['serve', '--port', 'x']);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toMatch(/^docmill serve: .*--port.*\nRun "docmill serve --help" for its flags\.\n$/);
    for (const command of ['serve', 'worker'] as const) {
      const r = await cli([command, '--frob']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^docmill ${command}: Unknown option '--frob'\\S*\\nRun "docmill ${command} --help" for its flags\\.\\n$`,
        ),
      );
    }
    const enqueue = await cli(['enqueue', '--redis', 'redis://127.0.0.1:9']);
    expect([enqueue.code, enqueue.stderr]).toEqual([
      2,
      'docmill enqueue: missing file or folder.\nRun "docmill enqueue --help" for its flags.\n',
    ]);
    // A bare `docmill` gets the list of commands: there is no one wrong thing to name.
    const none = await cli([]);
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toContain('Commands:');
  });
  it('a 0-byte local file is empty, not an empty upload', async () => {
    const dir = tempDir('docmill-cli-');
    writeFileSync(join(dir, 'empty.pdf'), '');
    const r = await cli(['parse', 'empty.pdf'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toEqual({
      success: false,
      code: 'BAD_REQUEST',
      error: 'The file is empty (0 bytes).',
      status: 400,
    });
  });
  it('--help for each command on stdout, exit 0', async () => {
    const general = await cli(['--help']);
    expect(general).toMatchObject({ code: 0, stderr: '' });
    expect(general.stdout).toContain('parse <file|dir>');
    for (const argv of [
      ['parse', '--help'],
      ['help', 'parse'],
      ['parse', 'x.pdf', '-h'],
    ]) {
      const r = await cli(argv);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toContain('--pdf-mode fast|auto|ocr');
    }
  });
});

describe('docmill parse <folder>', () => {
  it('lists skipped and failed files with the reason in its summary', async () => {
    const src = tempDir('docmill-src-');
    copyFileSync(join(root, sample), join(src, 'report.html'));
    writeFileSync(join(src, 'notes.txt'), 'plain');
    writeFileSync(join(src, 'README'), 'plain');
    writeFileSync(join(src, 'broken.pdf'), '%PDF-1.7 truncated');
    mkdirSync(join(src, 'md'));
    writeFileSync(join(src, 'md', 'old.html'), '<p>an earlier output</p>');
    const r = await cli(['parse', '.', '--out', 'md', '--formats', 'html'], { cwd: src });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^error: broken\.pdf: 400 /);
    expect(lines[1]).toMatch(/^files: 2 {2}pages: 1 {2}errors: 1 {2}skipped: 2 /);
    expect(lines.slice(2)).toEqual([
      'skipped: notes.txt (.txt is not a supported document type)',
      'skipped: README (no file extension)',
      expect.stringMatching(/^failed: broken\.pdf \(400 /),
    ]);
    expect(readFileSync(join(src, 'md', 'report.html.html'), 'utf8')).toContain('<h1>Quarterly report</h1>');
  });

  it('tries --password on every encrypted document of a folder, and names it in the failures', async () => {
    // Before: a folder run never passed --password to its documents.
    const src = tempDir('docmill-src-');
    copyFileSync(join(root, 'fixtures/ppt/password.ppt'), join(src, 'deck.ppt'));
    copyFileSync(join(root, 'fixtures/odp/password.odp'), join(src, 'other.odp'));
    const r = await cli(['parse', '.', '--out', 'md', '--password', 'Tr0ub4dor&3'], { cwd: src });
    expect(r.code).toBe(1);
    expect(readFileSync(join(src, 'md', 'deck.ppt.md'), 'utf8')).toContain('# Project Kickoff');
    expect(r.stderr).toContain(
      'error: other.odp: 400 BAD_REQUEST: The OpenDocument file is password-protected and the password given does not open it. Pass the right one with --password.',
    );
  }, 60_000);

  it('takes images only with the image parser, and says how to include them when it skips them', async () => {
    const src = tempDir('docmill-src-');
    copyFileSync(join(root, 'fixtures/image/basic.png'), join(src, 'scan.png'));
    copyFileSync(join(root, 'fixtures/pdf/basic.pdf'), join(src, 'doc.pdf'));
    const plain = await cli(['parse', '.', '--out', 'md'], { cwd: src });
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain(
      `skipped: scan.png (.png is an image: OCR'd only with the image parser (--options '{"parsers":["pdf","image"]}'))`,
    );
    const both = await cli(['parse', '.', '--out', 'md', '--options', '{"parsers":["pdf","image"]}', ...slowOk], {
      cwd: src,
    });
    expect(both.code).toBe(0);
    expect(both.stderr).toMatch(/^files: 2 {2}pages: 2 {2}errors: 0 {2}skipped: 0 /m);
    expect(readFileSync(join(src, 'md', 'scan.png.md'), 'utf8')).toContain('quick brown fox');
    expect(readFileSync(join(src, 'md', 'doc.pdf.md'), 'utf8')).toContain('# Docmill Fixture');
  });
});

describe('progress', () => {
  it('--progress: a folder run writes JSON lines on stderr, one per file started and finished, then the summary', async () => {
    const src = tempDir('docmill-src-');
    copyFileSync(join(root, sample), join(src, 'a-report.html'));
    writeFileSync(join(src, 'b-broken.pdf'), '%PDF-1.7 truncated');
    writeFileSync(join(src, 'c-open.csv'), 'name,note\nAda,"never closed\nBob,x\n');
    writeFileSync(join(src, 'notes.txt'), 'plain');
    const out = tempDir('docmill-out-');
    // A terminal too: --progress asks for lines, not a bar.
    const r = await cli(['parse', src, '--out', out, '--progress'], { tty: true });
    expect([r.code, r.stdout]).toEqual([1, '']);
    const events = r.stderr
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events).toEqual([
      { event: 'start', file: 'a-report.html', done: 0, total: 3 },
      {
        event: 'done',
        file: 'a-report.html',
        ok: true,
        pages: 1,
        warning: null,
        ms: expect.any(Number),
        done: 1,
        total: 3,
      },
      { event: 'start', file: 'b-broken.pdf', done: 1, total: 3 },
      {
        event: 'done',
        file: 'b-broken.pdf',
        ok: false,
        status: 400,
        code: expect.any(String),
        error: expect.any(String),
        ms: expect.any(Number),
        done: 2,
        total: 3,
      },
      { event: 'start', file: 'c-open.csv', done: 2, total: 3 },
      {
        event: 'done',
        file: 'c-open.csv',
        ok: true,
        pages: 1,
        warning: expect.stringMatching(/^A quoted CSV field is never closed/),
        ms: expect.any(Number),
        done: 3,
        total: 3,
      },
      {
        event: 'summary',
        files: 3,
        pages: 2,
        errors: 1,
        seconds: expect.any(Number),
        skipped: [{ file: 'notes.txt', reason: '.txt is not a supported document type' }],
        failed: [{ file: 'b-broken.pdf', reason: expect.stringMatching(/^400 /) }],
      },
    ]);
    expect(readFileSync(join(out, 'a-report.html.md'), 'utf8')).toContain('# Quarterly report');
  });
  it('draws a bar with pages/s and ETA for a single file on a terminal, then clears it', async () => {
    const plain = await cli(['parse', 'fixtures/pdf/running.pdf']);
    expect(plain.stderr).toBe(''); // not a terminal: nothing but the result
    const tty = await cli(['parse', 'fixtures/pdf/running.pdf'], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toBe(plain.stdout);
    expect(tty.stderr).toMatch(/\r\[#{8}\.{16}\] 1\/3 pages {2}\d+\.\d pages\/s {2}ETA \d+s\x1b\[K/);
    expect(tty.stderr).toMatch(/\r\[#{24}\] 3\/3 pages {2}\d+\.\d pages\/s {2}ETA 0s\x1b\[K/);
    expect(tty.stderr.endsWith('\r\x1b[K')).toBe(true);
  });
  it("folder mode on a terminal shows files, pages and the current file's pages; a pipe gets only the summary", async () => {
    // A folder of its own: fixtures/pdf also holds an encrypted and a blank PDF.
    const src = tempDir('docmill-pdfs-');
    for (const f of ['basic.pdf', 'continued.pdf', 'running.pdf', 'tables.pdf'])
      copyFileSync(join(root, 'fixtures/pdf', f), join(src, f));
    const out = tempDir('docmill-out-');
    const tty = await cli(['parse', src, '--out', out], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(/\r\[\.+\] 0\/4 files {2}0 pages {2}[\d.]+ pages\/s {2}basic\.pdf\x1b\[K/);
    expect(tty.stderr).toMatch(/ running\.pdf 2\/3 pages\x1b\[K/);
    expect(tty.stderr).toMatch(/\r\[#{24}\] 4\/4 files {2}7 pages .*\r\x1b\[Kfiles: 4 {2}pages: 7 {2}errors: 0/s);
    const pipe = await cli(['parse', src, '--out', out]);
    expect(pipe.stderr).toMatch(
      /^files: 4 {2}pages: 7 {2}errors: 0 {2}skipped: 0 {2}time: [\d.]+ s {2}pages\/s: [\d.]+\n$/,
    );
  });
});
