import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { createDeriver } from '../../src/derive/index.ts';
import {
  createEngine,
  type DeriveRequest,
  type DeriveResult,
  type Deriver,
  llmConfigFromEnv,
  type Stage,
  tree,
} from '../../src/index.ts';
import { paragraph } from '../../src/tree/build.ts';
import { fixture } from '../helpers/corpus.ts';

const appendNote: Stage = {
  name: 'append-note',
  applies: () => true,
  run: async (t) => ({
    ...t,
    children: [...t.children, paragraph('Stage note: the final tree reached the derivations after every stage ran.')],
  }),
};

describe('summary and json as derivations of the final tree', () => {
  it('run after every stage on a structured-clone-safe request, as a worker would receive it', async () => {
    const seen: DeriveRequest[] = [];
    const builtIn = createDeriver();
    // What a worker-backed deriver does: the request and result cross a structured clone.
    const viaClone: Deriver = async (req, signal) => {
      seen.push(req);
      return structuredClone(await builtIn(structuredClone(req), signal));
    };
    const schema = { type: 'object', properties: { stageNote: { type: 'string' } } };
    const t0 = Date.now();
    const data = await createEngine({ stages: [appendNote], deriver: viaClone }).parse(
      fixture('derive', 'report.html'),
      { formats: ['summary', { type: 'json', schema }], timeout: 5000 },
      { filename: 'r.html' },
    );
    expect(seen).toHaveLength(1);
    const req = seen[0] as DeriveRequest;
    expect(structuredClone(req)).toEqual(req);
    expect(req.summary).toBe(true);
    expect(req.json).toEqual({ schema });
    expect(req.zeroDataRetention).toBe(false);
    expect(req.deadline).toBeGreaterThanOrEqual(t0 + 5000);
    expect(req.deadline).toBeLessThanOrEqual(Date.now() + 5000);
    expect(tree.blockText(req.tree)).toContain('Stage note:');
    expect(data.json).toEqual({ stageNote: 'the final tree reached the derivations after every stage ran.' });
    expect(data.summary).toContain('Bacterial counts in the harbour fell by a third');
  });

  it('are not computed when neither format is asked for, and parseTree carries them when they are', async () => {
    let calls = 0;
    const counting: Deriver = async () => {
      calls++;
      return { summary: 'S', json: { a: 1 }, warnings: ['from the deriver'] };
    };
    const engine = createEngine({ deriver: counting });
    await engine.parse(fixture('derive', 'report.html'), { formats: ['markdown'] }, { filename: 'r.html' });
    expect(calls).toBe(0);
    const r = await engine.parseTree(
      fixture('derive', 'report.html'),
      { formats: ['summary'] },
      { filename: 'r.html' },
    );
    expect(r.derived).toEqual({ summary: 'S', json: { a: 1 }, warnings: ['from the deriver'] });
    const data = await engine.parse(fixture('derive', 'report.html'), { formats: ['json'] }, { filename: 'r.html' });
    expect(data.json).toEqual({ a: 1 });
    expect(data.summary).toBeUndefined();
    expect(data.warning).toBe('from the deriver');
  });
});

describe('derivations in a worker thread', () => {
  it('cross a real postMessage boundary and give the same result as in-process', async () => {
    // tsx's loader is registered inside the worker, then the TypeScript worker module is imported.
    const entry = JSON.stringify(new URL('../helpers/derive-worker.ts', import.meta.url).href);
    const worker = new Worker(`import('tsx/esm/api').then((m) => { m.register(); return import(${entry}); })`, {
      eval: true,
    });
    try {
      let next = 0;
      const pending = new Map<number, (m: { result?: DeriveResult; error?: string }) => void>();
      worker.on('message', (m: { id: number; result?: DeriveResult; error?: string }) => pending.get(m.id)?.(m));
      worker.on('error', (err) => {
        for (const settle of pending.values()) settle({ error: String(err) });
      });
      const inWorker: Deriver = (request, signal) => {
        const id = next++;
        signal.addEventListener('abort', () => worker.postMessage({ id, type: 'abort' }), { once: true });
        return new Promise((resolve, reject) => {
          pending.set(id, (m) => (m.result ? resolve(m.result) : reject(new Error(m.error))));
          worker.postMessage({ id, type: 'derive', request });
        });
      };
      const opts = {
        formats: [
          'summary' as const,
          { type: 'json' as const, schema: { type: 'object', properties: { amountDue: { type: 'number' } } } },
        ],
      };
      const remote = await createEngine({ deriver: inWorker }).parse(fixture('derive', 'invoice.html'), opts, {
        filename: 'i.html',
      });
      const local = await createEngine().parse(fixture('derive', 'invoice.html'), opts, { filename: 'i.html' });
      expect(remote.json).toEqual({ amountDue: 3532.8 });
      expect(remote).toEqual(local);
    } finally {
      await worker.terminate();
    }
  });
});

describe('model endpoint from environment variables', () => {
  it('reads the DOCMILL_LLM_* variables and refuses half a configuration', () => {
    expect(llmConfigFromEnv({})).toBeUndefined();
    expect(
      llmConfigFromEnv({
        DOCMILL_LLM_BASE_URL: 'http://127.0.0.1:8080/v1',
        DOCMILL_LLM_MODEL: 'qwen',
        DOCMILL_LLM_API_KEY: 'k',
        DOCMILL_LLM_LOCAL: 'true',
        DOCMILL_LLM_CONTEXT_TOKENS: '32768',
        DOCMILL_LLM_TIMEOUT_MS: '20000',
      }),
    ).toEqual({
      baseURL: 'http://127.0.0.1:8080/v1',
      model: 'qwen',
      apiKey: 'k',
      local: true,
      contextTokens: 32768,
      timeoutMs: 20000,
    });
    expect(() => llmConfigFromEnv({ DOCMILL_LLM_MODEL: 'qwen' })).toThrow(/must be set together/);
    expect(() =>
      llmConfigFromEnv({ DOCMILL_LLM_BASE_URL: 'http://x', DOCMILL_LLM_MODEL: 'm', DOCMILL_LLM_MAX_CHUNKS: '-1' }),
    ).toThrow(/positive integer/);
  });
});
