import { createEngine, type ParseData } from '@docmill/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { type RunningServer, startServer } from '../src/node.ts';
import { fixture, form } from './helpers.ts';

// The chunks format and the block structure over HTTP, from the real server on a loopback port.
let server: RunningServer;
const engine = createEngine();

beforeAll(async () => {
  server = await startServer(createApp(engine, { rateLimit: false }), { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server?.close(5_000);
  await engine.close();
});

async function upload(file: string, options: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const bytes = fixture(file) as Uint8Array<ArrayBuffer>;
  const fd = form({ options: JSON.stringify(options), file: new Blob([bytes]), filename: file.split('/').pop() });
  const res = await fetch(`${server.url}/v2/parse`, { method: 'POST', body: fd });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('POST /v2/parse with chunks and blocks', () => {
  it('returns data.chunks with provenance and data.blocks for a DOCX and a spreadsheet', async () => {
    const options = {
      formats: ['markdown', { type: 'chunks', maxTokens: 64 }],
      parsers: [{ type: 'pdf', blocks: true }],
    };
    const docx = await upload('docx/basic.docx', options);
    expect(docx.status).toBe(200);
    const data = docx.body.data as ParseData;
    expect(data.blocks?.[0]).toMatchObject({ kind: 'document', pageNumber: 1, status: 'ok' });
    expect(data.chunks?.length).toBeGreaterThan(2);
    for (const c of data.chunks ?? []) {
      expect(c.tokens).toBeLessThanOrEqual(64);
      expect(data.markdown?.slice(c.startOffset, c.endOffset)).toContain(c.text.split('\n')[0]?.slice(0, 20));
    }
    expect(data.chunks?.find((c) => c.text.includes('Hire staff'))?.headings).toEqual(['Summary', 'Plans']);
    const xlsx = await upload('sheet/basic.xlsx', options);
    const sheets = (xlsx.body.data as ParseData).chunks?.map((c) => c.sheet);
    expect(new Set(sheets)).toEqual(new Set(['Sales', 'Stock']));
  });

  it('answers 400 naming the field for chunk settings out of range', async () => {
    const r = await upload('csv/comma.csv', { formats: [{ type: 'chunks', maxTokens: 100, overlapTokens: 80 }] });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(String(r.body.error)).toMatch(/formats\[0\]\.overlapTokens/);
  });

  it('leaves the contract formats as they were: no chunks unless asked', async () => {
    const r = await upload('csv/comma.csv', { formats: ['markdown'] });
    expect(r.status).toBe(200);
    expect((r.body.data as ParseData).chunks).toBeUndefined();
    expect((r.body.data as ParseData).markdown).toContain('| Name | Comment | Amount |');
  });
});
