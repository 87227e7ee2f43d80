import type { Bytes } from '../cfb/bytes.ts';
import { FC, type Fib } from './fib.ts';

export interface TextboxStory {
  spid: number;
  from: number;
  to: number;
}

export interface Textboxes {
  /** Text box stories in story order (absolute CP ranges). */
  stories: TextboxStory[];
  /** Shape id anchored at a main-text CP (the \x08 character), from PlcSpaMom. */
  anchorAt: Map<number, number>;
}

/** Reads PlcSpaMom (shape anchors) and PlcftxbxTxt (text box stories) ([MS-DOC] 2.8.27, 2.8.35). */
export function readTextboxes(table: Bytes, fib: Fib, storyStart: number, storyLength: number): Textboxes {
  const out: Textboxes = { stories: [], anchorAt: new Map() };
  const spa = fib.fcLcb(FC.plcSpaMom);
  if (spa && spa.fc + spa.lcb <= table.length && spa.lcb >= 4) {
    const n = Math.floor((spa.lcb - 4) / 30);
    for (let i = 0; i < n; i++) out.anchorAt.set(table.u32(spa.fc + i * 4), table.i32(spa.fc + (n + 1) * 4 + i * 26));
  }
  const tx = fib.fcLcb(FC.plcftxbxTxt);
  if (!tx || storyLength <= 0 || tx.fc + tx.lcb > table.length || tx.lcb < 4) return out;
  const n = Math.floor((tx.lcb - 4) / 26);
  let floor = 0;
  for (let i = 0; i < n; i++) {
    const rec = tx.fc + (n + 1) * 4 + i * 22;
    // Reusable entries are free slots left by deleted text boxes.
    if (table.i16(rec + 8) !== 0) continue;
    // Stories follow each other; overlapping ranges would repeat text.
    const from = Math.max(Math.min(table.u32(tx.fc + i * 4), storyLength), floor);
    const to = Math.min(table.u32(tx.fc + (i + 1) * 4), storyLength);
    if (to > from) out.stories.push({ spid: table.i32(rec + 14), from: storyStart + from, to: storyStart + to });
    floor = Math.max(floor, to);
  }
  return out;
}
