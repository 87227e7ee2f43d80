import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, httpCli, manyPagePdf, type Served, stdioCli, textOf } from '../../mcp/test/helpers.ts';
import { parseMcpArgs } from '../src/mcp.ts';

const repo = resolve(import.meta.dirname, '../../..');
const fixture = (p: string) => join(repo, 'fixtures', p);

/**
 * A folder tree for the server: `docs/` is its root; `outside/` holds a document it must never
 * read, reachable from the root only through symbolic links.
 */
let base = '';
let docs = '';
const longPdf = manyPagePdf(20_000);
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'docmill-mcp-'));
  docs = join(base, 'docs');
  mkdirSync(join(docs, 'team'), { recursive: true });
  mkdirSync(join(base, 'outside'));
  copyFileSync(fixture('docx/basic.docx'), join(docs, 'report.docx'));
  copyFileSync(fixture('pdf/running.pdf'), join(docs, 'team', 'running.pdf'));
  copyFileSync(fixture('pdf/basic.pdf'), join(docs, 'basic.pdf'));
  copyFileSync(fixture('docx/basic.docx'), join(base, 'outside', 'secret.docx'));
  symlinkSync(join(base, 'outside', 'secret.docx'), join(docs, 'escape.docx'));
  symlinkSync(join(base, 'outside'), join(docs, 'linked'));
  // Inside the root through a link: allowed, it ends inside.
  symlinkSync(join(docs, 'report.docx'), join(docs, 'team', 'alias.docx'));
  writeFileSync(join(docs, 'long.pdf'), longPdf);
});
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

const call = (s: Served, name: string, args: Record<string, unknown>) => callTool(s.client, name, args);

describe('docmill mcp arguments', () => {
  it('takes repeatable roots and keeps HTTP flags for --http', () => {
    const s = parseMcpArgs(['--root', 'a', '--root', 'b', '--workers', '2'], {});
    expect(s).toMatchObject({ roots: ['a', 'b'], workers: 2, maxResultChars: 80_000, allowPrivateNetworks: false });
    expect(s.http).toBeUndefined();
    expect(() => parseMcpArgs(['--port', '9'], {})).toThrow(/--port needs --http/);
    expect(parseMcpArgs(['--http'], {}).http).toEqual({ host: '127.0.0.1', port: 3003, keys: [], noAuth: false });
    expect(() => parseMcpArgs(['--http', '--host', '0.0.0.0'], {})).toThrow(/without API keys/);
    expect(parseMcpArgs(['--http', '--host', '0.0.0.0'], { DOCMILL_API_KEYS: 'ci:k1' }).http?.keys).toEqual([
      { id: 'ci', key: 'k1' },
    ]);
  });
});

describe.each(['stdio', 'http'] as const)('docmill mcp over %s, driven by the MCP SDK client', (transport) => {
  let s: Served;
  beforeAll(async () => {
    const args = ['--root', docs, '--workers', '1'];
    s = transport === 'stdio' ? await stdioCli(args, base) : await httpCli(args, base);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('lists the three tools with JSON Schemas from the option schemas', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['chunk_document', 'list_formats', 'parse_document']);
    const parse = tools.find((t) => t.name === 'parse_document');
    const props = parse?.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(props)).toEqual(
      expect.arrayContaining(['path', 'url', 'data', 'formats', 'parsers', 'timeout']),
    );
    expect(parse?.inputSchema).toMatchObject({ additionalProperties: false });
    expect(props.timeout).toMatchObject({ type: 'integer', minimum: 1000, maximum: 300000, default: 30000 });
    expect(JSON.stringify(props.formats)).toContain('"chunks"');
    expect(parse?.outputSchema?.properties).toHaveProperty('metadata');
    const chunk = tools.find((t) => t.name === 'chunk_document');
    expect(chunk?.inputSchema.properties?.maxTokens).toMatchObject({ minimum: 16, maximum: 65536, default: 512 });
    expect(chunk?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('parses a DOCX by path, as Markdown text and structured content', async () => {
    const r = await call(s, 'parse_document', { path: 'report.docx' });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toContain('Revenue grew **strongly** in *Q3*');
    const data = r.structuredContent as { markdown: string; metadata: Record<string, unknown> };
    expect(data.markdown.startsWith('# Field report\n')).toBe(true);
    expect(data.metadata).toMatchObject({ title: 'Field report', author: 'Ada Writer' });
  });

  it('parses a PDF by absolute path, with progress notifications per page', async () => {
    const progress: Array<{ progress: number; total?: number }> = [];
    const r = await s.client.callTool(
      {
        name: 'parse_document',
        arguments: { path: join(docs, 'team', 'running.pdf'), formats: ['markdown', 'links'] },
      },
      undefined,
      { timeout: 120_000, onprogress: (p) => progress.push(p) },
    );
    const data = r.structuredContent as { markdown: string; links: string[]; metadata: { numPages: number } };
    expect(data.metadata.numPages).toBe(3);
    expect(data.markdown).toContain('Body text of page 3 talks about topic number 3.');
    expect(data.links).toEqual([]);
    // The server sends the last page's notification before the result (packages/mcp/test/progress.test.ts),
    // but the SDK client runs notification handlers a microtask late and drops the call's progress
    // handler on the result: notifications read in the same chunk as the result are lost there.
    expect(progress.length).toBeGreaterThan(0);
    for (const p of progress) expect(p).toMatchObject({ total: 3 });
    expect(progress.at(-1)?.progress).toBeLessThanOrEqual(3);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]?.progress).toBeGreaterThan(progress[i - 1]?.progress as number);
  });

  it('chunks a document and pages through the chunks', async () => {
    const all = await call(s, 'chunk_document', { path: 'report.docx', maxTokens: 64 });
    const full = all.structuredContent as {
      chunks: Array<{ id: string; tokens: number; headings: string[]; text: string }>;
      totalChunks: number;
      next: number | null;
    };
    expect(full.totalChunks).toBeGreaterThan(3);
    expect(full.next).toBeNull();
    expect(full.chunks.map((c) => c.id)).toEqual(full.chunks.map((_, i) => `c${i + 1}`));
    for (const c of full.chunks) expect(c.tokens).toBeLessThanOrEqual(64);
    expect(full.chunks.find((c) => c.text.includes('Hire staff'))?.headings).toEqual(['Summary', 'Plans']);
    const first = (await call(s, 'chunk_document', { path: 'report.docx', maxTokens: 64, limit: 2 }))
      .structuredContent as typeof full;
    expect([first.chunks.length, first.next]).toEqual([2, 2]);
    const rest = await call(s, 'chunk_document', { path: 'report.docx', maxTokens: 64, start: 2 });
    expect((rest.structuredContent as typeof full).chunks).toEqual(full.chunks.slice(2));
    expect(textOf(rest)).toContain(`chunks 3–${full.totalChunks} of ${full.totalChunks}; that is the end`);
  });

  it('refuses a path outside the roots, without looking at it', async () => {
    for (const path of ['../outside/secret.docx', join(base, 'outside', 'secret.docx'), '/etc/passwd']) {
      const r = await call(s, 'parse_document', { path });
      expect(r.isError, path).toBe(true);
      expect(textOf(r)).toBe(`400 BAD_REQUEST: ${path} is outside the folders this server may read: ${docs}.`);
    }
  });

  it('refuses symbolic links that lead out of the root, follows those that stay inside', async () => {
    for (const path of ['escape.docx', 'linked/secret.docx']) {
      const r = await call(s, 'parse_document', { path });
      expect(r.isError, path).toBe(true);
      expect(textOf(r)).toContain('leads through a symbolic link to a file outside the folders this server may read');
    }
    const inside = await call(s, 'parse_document', { path: 'team/alias.docx' });
    expect(textOf(inside)).toContain('# Field report');
  });

  it('stops the parse when the client cancels the call', async () => {
    const controller = new AbortController();
    const progress: number[] = [];
    const pending = s.client.callTool(
      { name: 'parse_document', arguments: { path: 'long.pdf', timeout: 300_000 } },
      undefined,
      {
        signal: controller.signal,
        timeout: 300_000,
        onprogress: (p) => {
          progress.push(p.progress);
          if (progress.length === 1) controller.abort('the user pressed stop');
        },
      },
    );
    await expect(pending).rejects.toThrow(/the user pressed stop|abort/i);
    // The server logs the call when the engine gives the parse up (or, were it not stopped, ends it).
    const record = await s.waitForLog((r) => r.tool === 'parse_document' && r.bytes === longPdf.byteLength);
    expect(record).toMatchObject({ status: 499, code: 'CANCELLED', source: 'path' });
    expect(progress[0]).toBeLessThan(20_000);
    // One worker: had the long parse gone on, this call would have waited for it.
    const next = await call(s, 'parse_document', { path: 'basic.pdf' });
    const meta = (next.structuredContent as { metadata: Record<string, unknown> }).metadata;
    expect(meta.concurrencyLimited).toBeUndefined();
    expect(textOf(next)).toContain('# Docmill Fixture');
  }, 180_000);
});
