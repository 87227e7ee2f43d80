import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { forwardProgress } from '../src/progress.ts';

type Sent = { progress: number; total?: number; message?: string };

function capture() {
  const sent: Sent[] = [];
  const send = async (n: ServerNotification) => {
    await new Promise((r) => setTimeout(r, 5));
    sent.push(n.params as Sent);
  };
  return { sent, send };
}

describe('forwardProgress', () => {
  it('sends each stage end before the call ends, even when reports come faster than the interval', async () => {
    const { sent, send } = capture();
    const f = forwardProgress('t1', send);
    for (let done = 1; done <= 3; done++) f.onProgress?.({ stage: 'parse', done, total: 3, unit: 'pages' });
    await f.end();
    // The first report and the stage's end go out at once; page 2 fell inside the interval.
    expect(sent.map((s) => s.progress)).toEqual([1, 3]);
    expect(sent.at(-1)).toMatchObject({ progress: 3, total: 3, message: 'reading: 3 of 3 pages' });
  });

  it('adds a later stage to the totals before it, so progress only grows', async () => {
    const { sent, send } = capture();
    const f = forwardProgress(7, send);
    f.onProgress?.({ stage: 'parse', done: 2, total: 2, unit: 'pages' });
    f.onProgress?.({ stage: 'ocr', done: 1, total: 2, unit: 'pages' });
    f.onProgress?.({ stage: 'ocr', done: 2, total: 2, unit: 'pages' });
    await f.end();
    expect(sent.map((s) => [s.progress, s.total])).toEqual([
      [2, 2],
      [3, 4],
      [4, 4],
    ]);
  });

  it('sends nothing after the call ended, and nothing without a progress token', async () => {
    const { sent, send } = capture();
    const f = forwardProgress('t2', send);
    await f.end();
    f.onProgress?.({ stage: 'parse', done: 1, total: 1, unit: 'pages' });
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toEqual([]);
    expect(forwardProgress(undefined, send).onProgress).toBeUndefined();
  });
});
