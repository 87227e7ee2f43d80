import { createEngine, type Engine, type ParseOptions, type Stage } from '@docmill/core';
import type { ParseTaskInput } from './engine.ts';
import { loadModule, type TaskContext } from './protocol.ts';

/** A module that builds a stage inside a worker from serializable options. */
export interface StageFactoryModule {
  createStage(options: unknown): Stage | Promise<Stage>;
}

const engines = new Map<string, Promise<Engine>>();

/** One engine per distinct configuration per worker: stages (OCR models) load once, not per document. */
function engineFor(config: ParseTaskInput['config']): Promise<Engine> {
  const key = JSON.stringify(config);
  let e = engines.get(key);
  if (!e) {
    e = (async () => {
      const stages: Stage[] = [];
      for (const s of config.stages) {
        const mod = await loadModule<StageFactoryModule>(s.url);
        stages.push(await mod.createStage(s.options));
      }
      return createEngine({ limits: config.limits, stages, ...(config.llm ? { llm: config.llm } : {}) });
    })();
    engines.set(key, e);
    e.catch(() => engines.delete(key));
  }
  return e;
}

/** Task "parse": one whole document, parsed by core inside a pool worker. */
export async function run(input: ParseTaskInput, ctx: TaskContext): Promise<unknown> {
  const engine = await engineFor(input.config);
  const hints = {
    ...input.hints,
    ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
    ...(ctx.offload ? { offload: ctx.offload } : {}),
  };
  const options = input.options as ParseOptions;
  if (input.mode === 'tree') return engine.parseTree(input.bytes, options, hints);
  return engine.parse(input.bytes, options, hints);
}
