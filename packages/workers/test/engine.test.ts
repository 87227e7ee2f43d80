import { readFileSync } from 'node:fs';
import { DocmillError } from '@docmill/core';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_DEADLINE } from '../../core/test/helpers/timeouts.ts';
import { createPooledEngine } from '../src/index.ts';

const slowStage = new URL('./tasks/slow-stage.ts', import.meta.url);
const html = (title: string) =>
  new TextEncoder().encode(`<html><body><main><h1>${title}</h1><p>Body of ${title}.</p></main></body></html>`);

let engine: ReturnType<typeof createPooledEngine> | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

// NO_DEADLINE: a worker's start (tsx compiling core in it, on a busy machine) counts toward a
// parse's deadline, which none of these tests is about but the one that sets its own.
describe('pooled engine', () => {
  it('parses in a worker; queue metadata appears exactly when a request waited', async () => {
    engine = createPooledEngine({ workers: 1, stages: [{ url: slowStage, options: { ms: 700 } }] });
    const alone = await engine.parse(html('Alone'), NO_DEADLINE, { filename: 'a.html' });
    expect(alone.markdown).toContain('# Alone');
    expect(alone.metadata.concurrencyLimited).toBeUndefined();
    expect(alone.metadata.concurrencyQueueDurationMs).toBeUndefined();
    const [first, second] = await Promise.all([
      engine.parse(html('SLOW first'), NO_DEADLINE, { filename: 'b.html' }),
      engine.parse(html('Second'), NO_DEADLINE, { filename: 'c.html' }),
    ]);
    expect(first.markdown).toContain('# SLOW first');
    expect(first.metadata.concurrencyLimited).toBeUndefined();
    expect(second.markdown).toContain('Body of Second.');
    expect(second.metadata.concurrencyLimited).toBe(true);
    expect(second.metadata.concurrencyQueueDurationMs).toBeGreaterThan(400);
  });

  it('a request past its timeout ends its worker with 408; the engine keeps serving', async () => {
    engine = createPooledEngine({ workers: 1, stages: [{ url: slowStage, options: { ms: 60_000 } }] });
    const t0 = Date.now();
    const err = await engine.parse(html('SLOW'), { timeout: 1500 }, { filename: 'x.html' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocmillError);
    expect((err as DocmillError).status).toBe(408);
    expect((err as DocmillError).code).toBe('SCRAPE_TIMEOUT');
    expect(Date.now() - t0).toBeLessThan(15_000);
    const next = await engine.parse(html('After'), NO_DEADLINE, { filename: 'y.html' });
    expect(next.markdown).toContain('# After');
    expect(engine.pool.stats().started).toBe(2);
  });

  it("passes the caller's password to the worker (an encrypted PDF opens there)", async () => {
    engine = createPooledEngine({ workers: 1 });
    const bytes = new Uint8Array(readFileSync(new URL('../../../fixtures/pdf/encrypted.pdf', import.meta.url)));
    const data = await engine.parse(bytes, NO_DEADLINE, { filename: 'locked.pdf', password: 'docmill' });
    expect(data.markdown).toContain('Locked Fixture');
    const err = await engine.parse(bytes, NO_DEADLINE, { filename: 'locked.pdf' }).catch((e: unknown) => e);
    expect((err as DocmillError).status).toBe(400);
    // The password marker crosses the thread boundary, so surfaces can name their own way to give one.
    expect((err as DocmillError).password).toBe('required');
    const wrong = await engine.parse(bytes, {}, { filename: 'locked.pdf', password: 'x' }).catch((e: unknown) => e);
    expect((wrong as DocmillError).password).toBe('incorrect');
  });

  it('an injected worker crash fails that request only', async () => {
    engine = createPooledEngine({ workers: 2, stages: [{ url: slowStage, options: { ms: 0 } }] });
    const [crashed, fine] = await Promise.allSettled([
      engine.parse(html('CRASH'), NO_DEADLINE, { filename: 'c.html' }),
      engine.parse(html('Fine'), NO_DEADLINE, { filename: 'f.html' }),
    ]);
    expect(crashed.status).toBe('rejected');
    const err = (crashed as PromiseRejectedResult).reason as DocmillError;
    expect([err.status, err.code]).toEqual([500, 'UNKNOWN_ERROR']);
    expect(fine.status === 'fulfilled' && fine.value.markdown).toContain('# Fine');
    const after = await engine.parse(html('After crash'), NO_DEADLINE, { filename: 'a.html' });
    expect(after.markdown).toContain('# After crash');
  });

  it('refuses bad options before queueing, and bad documents with the adapter error', async () => {
    engine = createPooledEngine({ workers: 1 });
    const bad = await engine.parse(html('x'), { timeout: 5 } as never).catch((e: unknown) => e);
    expect((bad as DocmillError).status).toBe(400);
    expect(engine.pool.stats().started).toBe(0);
    const empty = await engine.parse(new Uint8Array(0)).catch((e: unknown) => e);
    expect((empty as DocmillError).code).toBe('BAD_REQUEST');
    expect((empty as DocmillError).message).toMatch(/empty/);
  });

  it('keeps the caller buffer usable after the bytes move to the worker', async () => {
    engine = createPooledEngine({ workers: 1 });
    const bytes = html('Kept');
    const r = await engine.parseTree(bytes, NO_DEADLINE, { filename: 'k.html' });
    expect(r.kind).toBe('html');
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(new TextDecoder().decode(bytes)).toContain('Kept');
  });

  it("never detaches a caller's Node Buffer or ArrayBuffer, nor Node's shared Buffer pool", async () => {
    engine = createPooledEngine({ workers: 1 });
    const file = readFileSync(new URL('../../../fixtures/samples/quarterly-report.html', import.meta.url));
    // Small Buffer.from values are slices of one shared pool: moving one would detach its neighbour.
    const pooled = Buffer.from('<html><body><main><h1>Pooled</h1><p>One of many.</p></main></body></html>');
    const neighbour = Buffer.from('neighbour');
    expect(pooled.buffer).toBe(neighbour.buffer);
    const array = html('From an ArrayBuffer').buffer as ArrayBuffer;
    for (let round = 0; round < 2; round++) {
      expect((await engine.parse(file, NO_DEADLINE, { filename: 'q.html' })).markdown).toContain('# Quarterly report');
      expect((await engine.parse(pooled, NO_DEADLINE, { filename: 'p.html' })).markdown).toContain('# Pooled');
      expect((await engine.parse(array, NO_DEADLINE, { filename: 'a.html' })).markdown).toContain(
        '# From an ArrayBuffer',
      );
    }
    expect(neighbour.toString()).toBe('neighbour');
    expect(array.byteLength).toBeGreaterThan(0);
  });
});
