import { createEngine } from '@docmill/core';
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import type { RequestLog } from '../src/config.ts';
import { type RunningServer, startServer } from '../src/node.ts';
import { fixture } from './helpers.ts';

// The official JS SDK against the real server on a free loopback port: the drop-in promise.
const API_KEY = 'fc-test-0123456789';
let server: RunningServer;
let client: Firecrawl;
const logs: RequestLog[] = [];
const engine = createEngine();

beforeAll(async () => {
  const app = createApp(engine, { keys: [{ id: 'sdk', key: API_KEY }], log: (r) => logs.push(r) });
  server = await startServer(app, { host: '127.0.0.1', port: 0 });
  client = new Firecrawl({ apiKey: API_KEY, apiUrl: server.url });
});
afterAll(async () => {
  await server?.close(5_000);
  await engine.close();
});

const sdkError = async (p: Promise<unknown>): Promise<SdkError> => {
  try {
    await p;
  } catch (err) {
    return err as SdkError;
  }
  throw new Error('expected the SDK call to fail');
};

describe('official SDK parse() against docmill serve', () => {
  it('parses a PDF to Markdown with metadata', async () => {
    const doc = await client.parse(
      { data: fixture('pdf/basic.pdf'), filename: 'basic.pdf', contentType: 'application/pdf' },
      { formats: ['markdown'] },
    );
    expect(doc.markdown).toContain('# Docmill Fixture');
    expect(doc.markdown).toContain('- Second item');
    expect(doc.metadata?.numPages).toBe(1);
    expect(doc.metadata?.title).toBe('Basic Fixture');
    expect(doc.metadata?.contentType).toBe('application/pdf');
  });

  it('parses a DOCX with its core properties', async () => {
    const doc = await client.parse({
      data: fixture('docx/basic.docx'),
      filename: 'basic.docx',
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    expect(doc.markdown).toContain('# Field report');
    expect(doc.markdown).toContain('Revenue grew **strongly**');
    expect(doc.metadata?.title).toBe('Field report');
    expect(doc.metadata?.language).toBe('en-GB');
  });

  it('parses HTML with formats as objects and strings, untyped content', async () => {
    const doc = await client.parse(
      { data: fixture('html/rich.html'), filename: 'rich.html' },
      { formats: [{ type: 'markdown' }, 'links'], onlyMainContent: true },
    );
    expect(doc.markdown).toContain('# Rich *page*');
    expect(doc.markdown).toMatch(/\| Item \| Quarter/);
    expect(doc.links).toContain('https://docs.example.com/guide/intro.html');
    expect(doc.metadata?.title).toBe('Rich page');
  });

  it('surfaces invalid options as an SdkError with status 400 and BAD_REQUEST', async () => {
    const err = await sdkError(
      client.parse({ data: fixture('pdf/basic.pdf'), filename: 'basic.pdf' }, { timeout: 500 }),
    );
    expect(err).toBeInstanceOf(SdkError);
    expect(err.status).toBe(400);
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toMatch(/timeout/);
  });

  it('surfaces an unsupported file as UNSUPPORTED_FILE_TYPE', async () => {
    const err = await sdkError(
      client.parse({ data: 'just some notes', filename: 'notes.yaml', contentType: 'application/yaml' }),
    );
    expect(err.status).toBe(400);
    expect(err.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(err.message).toContain('Supported file extensions: .html');
  });

  it('surfaces a wrong key as 401', async () => {
    const other = new Firecrawl({ apiKey: 'fc-wrong', apiUrl: server.url });
    const err = await sdkError(other.parse({ data: fixture('pdf/basic.pdf'), filename: 'basic.pdf' }));
    expect(err.status).toBe(401);
  });

  it('logs each request with key id, pages and bytes, and no content', () => {
    const pdf = logs.find((l) => l.path === '/v2/parse' && l.status === 200 && l.filename === 'basic.pdf');
    expect(pdf).toMatchObject({ keyId: 'sdk', pages: 1, method: 'POST' });
    expect(pdf?.bytes).toBeGreaterThan(fixture('pdf/basic.pdf').byteLength);
    expect(JSON.stringify(logs)).not.toContain('Docmill Fixture');
  });
});
