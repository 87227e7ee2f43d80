import { type Bytes, decode8, decode16 } from '../cfb/bytes.ts';
import { type Rec, RT } from './records.ts';

/** TextHeaderAtom text types ([MS-PPT] 2.13.33 TextTypeEnum). */
export const TEXT_TYPE = {
  title: 0,
  body: 1,
  notes: 2,
  other: 4,
  centerBody: 5,
  centerTitle: 6,
  halfBody: 7,
  quarterBody: 8,
};

export interface TextPara {
  /** Lines of the paragraph (vertical-tab line breaks split them). */
  lines: string[];
  indent: number;
  /** True/false when the paragraph says so, undefined when it inherits from the master. */
  bullet: boolean | undefined;
  /** Index of the StyleTextPropAtom paragraph run holding this paragraph. */
  run: number;
  /** The bullet is an automatic number (PowerPoint 2000 extension data). */
  numbered?: boolean;
}

export interface TextBox {
  type: number;
  paras: TextPara[];
}

export const isTitleType = (t: number): boolean => t === TEXT_TYPE.title || t === TEXT_TYPE.centerTitle;

/** Body placeholders are bulleted by the default master; text boxes and subtitles are not. */
export const bulletByDefault = (t: number): boolean =>
  t === TEXT_TYPE.body || t === TEXT_TYPE.halfBody || t === TEXT_TYPE.quarterBody;

interface ParaRun {
  count: number;
  indent: number;
  bullet: boolean | undefined;
}

/** Paragraph runs of a StyleTextPropAtom ([MS-PPT] 2.9.44): character counts, indent levels, bullet flag. */
function paraRuns(s: Bytes, r: Rec, textLength: number): ParaRun[] {
  const runs: ParaRun[] = [];
  let p = r.body;
  let covered = 0;
  while (covered <= textLength && p + 10 <= r.end) {
    const count = s.u32(p);
    const indent = s.u16(p + 4);
    const mask = s.u32(p + 6);
    p += 10;
    let bullet: boolean | undefined;
    if (mask & 0x0f) {
      bullet = (s.u16(p) & 1) !== 0;
      p += 2;
    }
    // Skip the remaining optional fields in their stored order so the next run is found.
    const sizes: [number, number][] = [
      [0x80, 2],
      [0x10, 2],
      [0x40, 2],
      [0x20, 4],
      [0x800, 2],
      [0x1000, 2],
      [0x2000, 2],
      [0x4000, 2],
      [0x100, 2],
      [0x400, 2],
      [0x8000, 2],
    ];
    for (const [bit, n] of sizes) if (mask & bit) p += n;
    if (mask & 0x100000) {
      if (p + 2 > r.end) break;
      p += 2 + s.u16(p) * 4;
    }
    if (mask & 0x10000) p += 2;
    if (mask & 0xe0000) p += 2;
    if (mask & 0x200000) p += 2;
    if (count === 0) break;
    runs.push({ count, indent: Math.min(indent, 8), bullet });
    covered += count;
  }
  return runs;
}

/** Parses TextHeaderAtom + TextChars/TextBytes + StyleTextProp records into paragraphs. */
export function readTextBox(s: Bytes, recs: Rec[], type: number): TextBox | undefined {
  let text: string | undefined;
  let style: Rec | undefined;
  for (const r of recs) {
    if (r.type === RT.textChars) text = decode16(s.slice(r.body, r.end - r.body));
    else if (r.type === RT.textBytes) text = decode8(s.slice(r.body, r.end - r.body));
    else if (r.type === RT.styleTextProp) style = r;
  }
  if (text === undefined) return undefined;
  const runs = style ? paraRuns(s, style, text.length) : [];
  const paras: TextPara[] = [];
  let pos = 0;
  let run = 0;
  let runEnd = runs[0]?.count ?? Number.POSITIVE_INFINITY;
  for (const raw of text.split('\r')) {
    while (run < runs.length - 1 && pos >= runEnd) {
      run++;
      runEnd += (runs[run] as ParaRun).count;
    }
    const r = runs[run];
    const lines = raw
      .replace(/[\x00-\x08\x0c-\x1f]/g, '')
      .split('\x0b')
      .map((l) => l.replace(/\s+/g, ' ').trim());
    paras.push({ lines, indent: r?.indent ?? 0, bullet: r?.bullet, run });
    pos += raw.length + 1;
  }
  return { type, paras };
}

/**
 * Which paragraph runs carry an automatic numbering scheme, from a StyleTextProp9Atom
 * ([MS-PPT] 2.9.56, one entry per paragraph run). Parsing stops at character or spelling data whose
 * layout this reader does not need, leaving later runs unnumbered.
 */
export function readAutoNumbers(s: Bytes, r: Rec): boolean[] {
  const out: boolean[] = [];
  let p = r.body;
  while (p + 12 <= r.end) {
    const masks = s.u32(p);
    p += 4;
    if (masks & (1 << 23)) p += 2;
    let numbered = false;
    if (masks & (1 << 24)) {
      if (p + 2 > r.end) break;
      numbered = s.u16(p) !== 0;
      p += 2;
    }
    if (masks & (1 << 25)) {
      numbered = true;
      p += 4;
    }
    out.push(numbered);
    if (p + 8 > r.end || s.u32(p) !== 0 || s.u32(p + 4) !== 0) break;
    p += 8;
  }
  return out;
}
