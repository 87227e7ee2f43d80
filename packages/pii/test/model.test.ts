import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPool, createPooledEngine } from '@docmill/workers';
import { afterAll, describe, expect, it } from 'vitest';
import { writeModel } from '../../../fixtures/scripts/make-pii-model.ts';
import { NO_DEADLINE } from '../../core/test/helpers/timeouts.ts';
import {
  createEngine,
  createTokenClassifier,
  loadModelRuntime,
  PII_STAGE_URL,
  piiModel,
  windows,
} from '../src/index.ts';

const MODEL = fileURLToPath(new URL('../../../fixtures/pii/ner-model', import.meta.url));
const enc = (s: string) => new TextEncoder().encode(s);
const spansOf = (text: string, spans: { start: number; end: number; entity: string }[]) =>
  spans.map((s) => `${s.entity}:${text.slice(s.start, s.end)}`);

describe('the generated test model', () => {
  it('is what fixtures/scripts/make-pii-model.ts makes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docmill-ner-'));
    try {
      writeModel(dir);
      // JSON is compared as data (the committed files are formatted by biome), the graph byte for byte.
      for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json'])
        expect(JSON.parse(readFileSync(join(dir, f), 'utf8')), f).toEqual(
          JSON.parse(readFileSync(join(MODEL, f), 'utf8')),
        );
      expect(readFileSync(join(dir, 'onnx/model.onnx')).equals(readFileSync(join(MODEL, 'onnx/model.onnx')))).toBe(
        true,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('token classification (in-thread)', () => {
  it('maps word pieces back to characters and merges B-/I- into spans; ORG and MISC are kept', async () => {
    const c = await createTokenClassifier({ model: MODEL });
    const text = 'Ada Lovelace met Grace Hopper in Wonderland, Acme Corp pays in euro.';
    const [spans] = await c.classify([text]);
    expect(spansOf(text, spans ?? [])).toEqual(['PERSON:Ada Lovelace', 'PERSON:Grace Hopper', 'LOCATION:Wonderland']);
  });
  it('gives the same spans through small overlapping windows as through one', async () => {
    const text = Array.from({ length: 12 }, (_, i) => `Alan Turing met Quuxington in New York ${i}.`).join(' ');
    const whole = await createTokenClassifier({ model: MODEL });
    const windowed = await createTokenClassifier({ model: MODEL, windowTokens: 7, overlapTokens: 3, batchSize: 3 });
    const [a] = await whole.classify([text]);
    const [b] = await windowed.classify([text]);
    expect(b).toEqual(a);
    expect(spansOf(text, a ?? []).slice(0, 3)).toEqual([
      'PERSON:Alan Turing',
      'PERSON:Quuxington',
      'LOCATION:New York',
    ]);
    expect(a).toHaveLength(36);
  });
  it('windows cover every token once', () => {
    const w = windows(20, 8, 4);
    const owned = w.flatMap((x) => Array.from({ length: x.ownEnd - x.ownStart }, (_, i) => x.ownStart + i));
    expect(owned).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(w.every((x) => x.end - x.start <= 8)).toBe(true);
  });
  it('takes label-map overrides', async () => {
    const c = await createTokenClassifier({ model: MODEL, labels: { ORG: 'PERSON', PER: null } });
    const text = 'Ada Lovelace works for Acme Corp.';
    expect(spansOf(text, (await c.classify([text]))[0] ?? [])).toEqual(['PERSON:Acme Corp']);
  });
  it('refuses a hub id unless downloads are allowed, naming the fix', async () => {
    await expect(createTokenClassifier({ model: 'dslim/bert-base-NER' })).rejects.toThrow(/allowRemoteModels: true/);
  });
});

describe('the model in a pool worker, through the engine', () => {
  const pool = createPool({ size: 1 });
  afterAll(() => pool.close());

  const html = `<p>Zorblat met Ada Lovelace in Paris; mail ada@example.org, phone (415) 555-2671, card 4111 1111 1111 1111.</p>`;

  it('accurate: model spans plus self-validating patterns only; aggressive adds every heuristic', async () => {
    const engine = createEngine({ pii: { model: { model: MODEL, worker: pool } } });
    const accurate = await engine.parse(enc(html), { redactPII: true, ...NO_DEADLINE }, { filename: 'a.html' });
    expect(accurate.markdown).toBe(
      '<PERSON> met <PERSON> in <LOCATION>; mail <EMAIL>, phone (415) 555-2671, card <FINANCIAL>.\n',
    );
    const aggressive = await engine.parse(
      enc(html),
      { redactPII: { mode: 'aggressive' }, ...NO_DEADLINE },
      { filename: 'a.html' },
    );
    expect(aggressive.markdown).toBe(
      '<PERSON> met <PERSON> in <LOCATION>; mail <EMAIL>, phone <PHONE>, card <FINANCIAL>.\n',
    );
    // The model ran in the pool's worker, not in this thread.
    expect(pool.stats().started).toBe(1);
    await engine.close();
  });
  it('default: a worker of its own, from a path string; closed with the engine', async () => {
    const engine = createEngine({ pii: { model: MODEL } });
    const data = await engine.parse(
      enc(html),
      { redactPII: { replaceStyle: 'mask' }, ...NO_DEADLINE },
      { filename: 'a.html' },
    );
    expect(data.markdown).toMatch(/^(\\\*){7} met (\\\*){12} in (\\\*){5};/);
    await engine.close();
  });
  it('a model that cannot load fails the request: no text comes back', async () => {
    const engine = createEngine({ pii: { model: { model: '/nonexistent/ner', worker: pool } } });
    const err = await engine.parse(enc(html), { redactPII: true }, { filename: 'a.html' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 500 });
    expect(String((err as Error).message)).toMatch(/PII model failed/);
    expect(String((err as Error).message)).not.toContain('Zorblat');
    await engine.close();
  });
});

describe('the PII stage inside createPooledEngine workers', () => {
  it('each document parses in a pool worker that loads the model itself', async () => {
    await loadModelRuntime();
    const engine = createPooledEngine({
      workers: 1,
      stages: [{ url: PII_STAGE_URL, options: { model: MODEL } }],
      preload: [PII_STAGE_URL],
    });
    try {
      const data = await engine.parse(
        enc('<p>Alan Turing lives in Paris.</p>'),
        { redactPII: { mode: 'accurate' }, ...NO_DEADLINE },
        { filename: 'a.html' },
      );
      expect(data.markdown).toBe('<PERSON> lives in <LOCATION>.\n');
    } finally {
      await engine.close();
    }
  });
});

describe('piiModel without a worker', () => {
  it('runs in this thread when worker: false', async () => {
    const m = piiModel({ model: MODEL, worker: false });
    const text = 'Grace Hopper lives in Paris.';
    expect(spansOf(text, (await m.detect([text]))[0] ?? [])).toEqual(['PERSON:Grace Hopper', 'LOCATION:Paris']);
    await m.close?.();
  });
});
