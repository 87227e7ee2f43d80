import { createEngine, type EngineConfig, type ParseOptions } from '@docmill/core';
import type { BenchInput, BenchTool } from '../harness.ts';

/** docmill as a bench tool: full parse to Markdown, as a user calls it. */
export function docmillTool(name: string, options: ParseOptions = {}, config: EngineConfig = {}): BenchTool {
  const engine = createEngine(config);
  return {
    name,
    ours: true,
    run: (input: BenchInput) => engine.parse(input.bytes, { timeout: 300000, ...options }, { filename: input.name }),
  };
}
