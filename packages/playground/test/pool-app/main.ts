import { createPooledEngine } from '@docmill/workers';

/**
 * A page for the pool test: whole documents parsed by `@docmill/workers`' own Web Worker, as a
 * bundler emits it from the package's browser entry.
 */

interface Outcome {
  markdown?: string;
  limited?: boolean;
  error?: { status: number; code: string };
  progress: number;
}

async function runPool(files: { name: string; b64: string; timeout?: number }[]): Promise<Outcome[]> {
  const engine = createPooledEngine({ workers: 1 });
  try {
    // All at once into one worker: every file after the first waits in the pool's queue.
    return await Promise.all(
      files.map(async (f): Promise<Outcome> => {
        const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
        let progress = 0;
        try {
          const r = await engine.parse(bytes, f.timeout ? { timeout: f.timeout } : {}, {
            filename: f.name,
            onProgress: () => {
              progress++;
            },
          });
          return { markdown: r.markdown ?? '', limited: r.metadata.concurrencyLimited === true, progress };
        } catch (err) {
          const e = err as { status: number; code: string };
          return { error: { status: e.status, code: e.code }, progress };
        }
      }),
    );
  } finally {
    // How many workers the pool started: a replacement shows up here.
    document.body.dataset.started = String(engine.pool.stats().started);
    await engine.close();
  }
}

(window as unknown as { runPool: typeof runPool }).runPool = runPool;
document.body.dataset.ready = 'yes';
