import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Stage, tree } from '../../src/index.ts';
import { fixture } from '../helpers/corpus.ts';

/**
 * The model path against a small OpenAI-compatible server on 127.0.0.1, started here: it records
 * each request and answers from a queue of fixed completions (optionally late).
 */

interface Recorded {
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
    max_tokens: number;
    temperature: number;
  };
}

interface Reply {
  content?: string;
  status?: number;
  delayMs?: number;
}

let server: Server;
let baseURL: string;
const requests: Recorded[] = [];
let replies: Reply[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      const reply = replies.shift() ?? { status: 500, content: 'no reply queued' };
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            reply.status && reply.status >= 400
              ? { error: { message: reply.content } }
              : {
                  id: 'cmpl-1',
                  object: 'chat.completion',
                  choices: [
                    { index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: 'stop' },
                  ],
                },
          ),
        );
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests.length = 0;
  replies = [];
});

const invoice = fixture('derive', 'invoice.html');
const schema = {
  type: 'object',
  properties: {
    invoiceNumber: { type: 'string' },
    amountDue: { type: 'number' },
    issueDate: { type: 'string', format: 'date' },
  },
  required: ['invoiceNumber', 'amountDue'],
};
const jsonFormat = { type: 'json' as const, schema, prompt: 'Read the invoice header.' };
const answer = { invoiceNumber: 'INV-2031', amountDue: 3532.8, issueDate: '2025-03-03' };
const engineWith = (extra: Record<string, unknown> = {}) =>
  createEngine({ llm: { baseURL, model: 'test-model', apiKey: 'test-key', ...extra } });

describe('json with a model endpoint', () => {
  it('sends the schema in response_format and the rendered Markdown, and returns the validated answer', async () => {
    replies.push({ content: JSON.stringify(answer) });
    const data = await engineWith().parse(invoice, { formats: [jsonFormat, 'markdown'] }, { filename: 'invoice.html' });
    expect(data.json).toEqual(answer);
    expect(data.warning).toBeNull();
    expect(requests).toHaveLength(1);
    const [r] = requests;
    expect(r?.path).toBe('/v1/chat/completions');
    expect(r?.headers.authorization).toBe('Bearer test-key');
    expect(r?.body.model).toBe('test-model');
    expect(r?.body.temperature).toBe(0);
    expect(r?.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'extraction', schema, strict: false },
    });
    const user = r?.body.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(user).toContain('Read the invoice header.');
    expect(user).toContain(JSON.stringify(schema));
    // The document travels as the Markdown the caller also gets, nothing else of it.
    expect(user).toContain(data.markdown?.trim());
    expect(user).not.toContain('<table');
  });

  it('takes one repair turn when the answer does not validate', async () => {
    replies.push({ content: '{"invoiceNumber": "INV-2031", "amountDue": "3.532,80"}' });
    replies.push({ content: `\`\`\`json\n${JSON.stringify(answer)}\n\`\`\`` });
    const data = await engineWith().parse(invoice, { formats: [jsonFormat] }, { filename: 'invoice.html' });
    expect(data.json).toEqual(answer);
    expect(data.warning).toBeNull();
    expect(requests).toHaveLength(2);
    const repair = requests[1]?.body.messages ?? [];
    expect(repair.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(repair[2]?.content).toContain('"3.532,80"');
    expect(repair[3]?.content).toMatch(/\/amountDue must be number/);
  });

  it('falls back to the offline extraction, saying why, when the repair fails too', async () => {
    replies.push({ content: 'not json at all' }, { content: '{"invoiceNumber": 2031}' });
    const data = await engineWith().parse(invoice, { formats: [jsonFormat] }, { filename: 'invoice.html' });
    expect(requests).toHaveLength(2);
    expect(data.json).toEqual({ invoiceNumber: 'INV-2031', amountDue: 3532.8, issueDate: '2025-03-03' });
    expect(data.warning).toMatch(/did not validate after one repair/);
    expect(data.warning).toMatch(/offline extractor answered/);
  });

  it('falls back when the endpoint fails', async () => {
    replies.push({ status: 503, content: 'overloaded' });
    const data = await engineWith().parse(invoice, { formats: [jsonFormat] }, { filename: 'invoice.html' });
    expect(data.json?.invoiceNumber).toBe('INV-2031');
    expect(data.warning).toMatch(/HTTP 503: overloaded/);
  });

  it('honours the parse timeout: a slow model is cut off and the offline result comes in time', async () => {
    replies.push({ content: JSON.stringify(answer), delayMs: 10_000 });
    const t0 = Date.now();
    const data = await engineWith().parse(
      invoice,
      { formats: [jsonFormat], timeout: 1500 },
      { filename: 'invoice.html' },
    );
    const took = Date.now() - t0;
    expect(took).toBeLessThan(1500);
    expect(took).toBeGreaterThan(1000);
    expect(requests).toHaveLength(1);
    expect(data.json?.amountDue).toBe(3532.8);
    expect(data.warning).toMatch(/did not answer in time/);
  });

  it('honours the configured per-call timeout below the parse timeout', async () => {
    replies.push({ content: JSON.stringify(answer), delayMs: 10_000 });
    const t0 = Date.now();
    const data = await engineWith({ timeoutMs: 300 }).parse(
      invoice,
      { formats: [jsonFormat] },
      { filename: 'invoice.html' },
    );
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(data.warning).toMatch(/did not answer in time/);
  });

  it('cuts long documents into chunks that fit the context and merges the answers', async () => {
    const rows = Array.from(
      { length: 120 },
      (_, i) => `<p>Line ${i + 1}: widget batch ${1000 + i} checked and packed.</p>`,
    );
    const html = `<html><body><main><p>Invoice number: INV-9</p>${rows.join('')}<p>Amount due: 12.50</p></main></body></html>`;
    replies.push(
      { content: '{"invoiceNumber": "INV-9", "amountDue": null}' },
      { content: '{"invoiceNumber": null}' },
      { content: '{"amountDue": 12.5}' },
      { content: '{}' },
      { content: '{}' },
      { content: '{}' },
    );
    const engine = engineWith({ contextTokens: 1500, maxOutputTokens: 200 });
    const data = await engine.parse(
      new TextEncoder().encode(html),
      { formats: [jsonFormat] },
      { filename: 'long.html' },
    );
    expect(requests.length).toBeGreaterThan(1);
    for (const r of requests) {
      const doc = r.body.messages[1]?.content.split('Document (Markdown):\n')[1] ?? '';
      expect(doc.length).toBeLessThanOrEqual((1500 - 200) * 3);
    }
    // Chunks are validated without `required`; the merge is validated against the whole schema.
    expect(data.json).toEqual({ invoiceNumber: 'INV-9', amountDue: 12.5 });
  });
});

describe('summary with a model endpoint', () => {
  it('asks for a plain-text summary of the Markdown and returns it', async () => {
    replies.push({ content: '  Harbour bacteria fell by a third in 2024.  ' });
    const data = await engineWith().parse(
      fixture('derive', 'report.html'),
      { formats: ['summary'] },
      { filename: 'r.html' },
    );
    expect(data.summary).toBe('Harbour bacteria fell by a third in 2024.');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.body.response_format).toBeUndefined();
    expect(requests[0]?.body.messages[1]?.content).toContain('Bacterial counts in the harbour fell by a third');
  });
});

describe('zero data retention', () => {
  it('sends nothing to an endpoint not marked local or ZDR-safe, and says so', async () => {
    replies.push({ content: JSON.stringify(answer) });
    const data = await engineWith().parse(
      invoice,
      { formats: [jsonFormat, 'summary'], zeroDataRetention: true },
      { filename: 'invoice.html' },
    );
    expect(requests).toHaveLength(0);
    expect(data.json?.invoiceNumber).toBe('INV-2031');
    expect(data.summary).toBeTruthy();
    expect(data.warning).toMatch(
      /zeroDataRetention is set and the configured model endpoint is not marked local or ZDR-safe/,
    );
  });

  it('uses an endpoint marked local', async () => {
    replies.push({ content: JSON.stringify(answer) });
    const data = await engineWith({ local: true }).parse(
      invoice,
      { formats: [jsonFormat], zeroDataRetention: true },
      { filename: 'invoice.html' },
    );
    expect(requests).toHaveLength(1);
    expect(data.json).toEqual(answer);
    expect(data.warning).toBeNull();
  });
});

describe('derivations run on the final tree', () => {
  // A stand-in redaction stage: the model must only ever see its output.
  const redactEmails: Stage = {
    name: 'test-redact',
    redacts: true,
    applies: (ctx) => ctx.options.redactPII !== null,
    run: async (t) => tree.mapText(t, (v) => v.replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, '<EMAIL>')),
  };

  it('prompts hold the redacted Markdown, and offline results come from the redacted tree', async () => {
    replies.push({ content: 'An invoice.' }, { content: JSON.stringify(answer) });
    const engine = createEngine({ stages: [redactEmails], llm: { baseURL, model: 'm' } });
    const data = await engine.parse(
      invoice,
      { formats: ['summary', jsonFormat, 'markdown'], redactPII: true },
      { filename: 'invoice.html' },
    );
    expect(requests).toHaveLength(2);
    for (const r of requests) {
      const sent = r.body.messages.map((m) => m.content).join('\n');
      expect(sent).not.toContain('accounts@northwind.example');
      expect(sent).toContain('<EMAIL>');
    }
    expect(data.markdown).toContain('<EMAIL>');
    const offline = await createEngine({ stages: [redactEmails] }).parse(
      invoice,
      {
        formats: [{ type: 'json', schema: { type: 'object', properties: { questions: { type: 'string' } } } }],
        redactPII: true,
      },
      { filename: 'invoice.html' },
    );
    expect(JSON.stringify(offline.json)).not.toContain('northwind.example');
  });
});
