import { installHtmlDom } from '@docmill/core/html-dom';
import type { ParseTaskInput } from './engine.ts';
import { run as parse } from './parse-task.ts';
import type { TaskContext } from './protocol.ts';

/**
 * Task "parse" in a browser worker. A Web Worker has no `DOMParser`, and browser bundles of core
 * leave out its parse5 + linkedom backend; installing it here puts it in the worker's chunks only
 * (loaded on the first HTML or EPUB), so HTML parses in workers as it does in Node.
 */
export function run(input: ParseTaskInput, ctx: TaskContext): Promise<unknown> {
  installHtmlDom();
  return parse(input, ctx);
}
