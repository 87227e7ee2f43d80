import type { Bytes } from '../cfb/bytes.ts';
import type { Fib } from './fib.ts';

/** One note story (footnotes or endnotes): reference positions in the main text and text ranges. */
export interface NoteStory {
  /** Main-text CPs of the reference marks, in order. */
  refs: number[];
  /** Absolute CP ranges of each note's text. */
  ranges: [number, number][];
}

/**
 * Reads a PlcfXndRef (n+1 CPs, then 2-byte FRDs) and its PlcfXndTxt (n+2 CPs relative to the story
 * start, the last closing the story) ([MS-DOC] 2.8.10, 2.8.11).
 */
export function readNotes(
  table: Bytes,
  fib: Fib,
  refIndex: number,
  txtIndex: number,
  storyStart: number,
  storyLength: number,
): NoteStory {
  const out: NoteStory = { refs: [], ranges: [] };
  const ref = fib.fcLcb(refIndex);
  const txt = fib.fcLcb(txtIndex);
  if (!ref || !txt || storyLength <= 0) return out;
  if (ref.fc + ref.lcb > table.length || txt.fc + txt.lcb > table.length) return out;
  const nRef = Math.floor((ref.lcb - 4) / 6);
  for (let i = 0; i < nRef; i++) out.refs.push(table.u32(ref.fc + i * 4));
  const nTxt = Math.floor(txt.lcb / 4);
  let floor = 0;
  for (let i = 0; i + 1 < nTxt && out.ranges.length < out.refs.length; i++) {
    // Notes follow each other in their story; overlapping ranges would repeat text.
    const a = Math.max(table.u32(txt.fc + i * 4), floor);
    const z = Math.min(table.u32(txt.fc + (i + 1) * 4), storyLength);
    out.ranges.push(z > a ? [storyStart + a, storyStart + z] : [storyStart, storyStart]);
    floor = Math.max(floor, z);
  }
  out.refs.length = Math.min(out.refs.length, out.ranges.length);
  return out;
}
