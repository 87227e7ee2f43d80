import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { ACCEPTED_EXTENSIONS, parse } from '../src/index.ts';
import { captureConsole } from '../src/util/console.ts';

const fixtures = resolve(import.meta.dirname, '../../../fixtures');

function documents(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return documents(p);
    return (ACCEPTED_EXTENSIONS as readonly string[]).includes(extname(name).toLowerCase()) ? [p] : [];
  });
}

/** basic.xls with its WriteAccess record (0x005C) retyped to 0x082B, a record SheetJS does not know. */
function xlsWithUnknownRecord(): Uint8Array {
  const bytes = new Uint8Array(readFileSync(join(fixtures, 'sheet/basic.xls')));
  const at = Buffer.from(bytes).indexOf(Buffer.from([0x5c, 0x00, 0x70, 0x00]));
  expect(at).toBeGreaterThan(0);
  bytes.set([0x2b, 0x08], at);
  return bytes;
}

describe('nothing reaches the console during a parse', () => {
  let spies: MockInstance[] = [];
  const written = () => spies.flatMap((s) => s.mock.calls.map((c) => String(c[0])));
  beforeEach(() => {
    spies = [
      vi.spyOn(process.stdout, 'write').mockImplementation(() => true),
      vi.spyOn(process.stderr, 'write').mockImplementation(() => true),
      ...(['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((m) =>
        vi.spyOn(console, m).mockImplementation(() => undefined),
      ),
    ];
  });
  afterEach(() => vi.restoreAllMocks());

  it('for every fixture document', async () => {
    const files = documents(fixtures);
    expect(files.length).toBeGreaterThan(25);
    for (const file of files) {
      await parse(readFileSync(file), { formats: ['markdown', 'html', 'links'] }, { filename: file }).catch(() => null);
      expect(written(), relative(fixtures, file)).toEqual([]);
    }
  });

  it('SheetJS diagnostics on a damaged .xls become one warning instead of console output', async () => {
    const data = await parse(xlsWithUnknownRecord(), {}, { filename: 'damaged.xls' });
    expect(written()).toEqual([]);
    expect(data.warning).toBe(
      'The spreadsheet reader skipped parts it could not interpret (Missing Info for XLS Record 0x82b).',
    );
    expect(data.markdown).toContain('## '); // the sheets are still there
  });
});

describe('captureConsole', () => {
  it('collects what the call prints and restores the console, also when it throws', () => {
    const error = console.error;
    const { value, messages } = captureConsole(() => {
      console.error('Missing Info for XLS Record', 0x82b);
      console.log('second');
      return 42;
    });
    expect(value).toBe(42);
    expect(messages).toEqual(['Missing Info for XLS Record 2091', 'second']);
    expect(console.error).toBe(error);
    expect(() =>
      captureConsole(() => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(console.error).toBe(error);
  });
  it('refuses an async function, whose later output it could not scope', () => {
    const log = console.log;
    expect(() => captureConsole(async () => 1)).toThrow(/synchronous/);
    expect(console.log).toBe(log);
  });
});
