import type { Bytes } from '../cfb/bytes.ts';

/** One record header ([MS-PPT] 2.3.1 RecordHeader); `body`/`end` bound its payload. */
export interface Rec {
  ver: number;
  instance: number;
  type: number;
  offset: number;
  body: number;
  end: number;
}

export const RT = {
  document: 0x03e8,
  documentAtom: 0x03e9,
  slide: 0x03ee,
  slideAtom: 0x03ef,
  notes: 0x03f0,
  slidePersist: 0x03f3,
  slideListWithText: 0x0ff0,
  userEdit: 0x0ff5,
  currentUser: 0x0ff6,
  persistDirectory: 0x1772,
  outlineTextRef: 0x0f9e,
  textHeader: 0x0f9f,
  textChars: 0x0fa0,
  styleTextProp: 0x0fa1,
  textBytes: 0x0fa8,
  cryptSession: 0x2f14,
  ppDrawing: 0x040c,
  ppDrawingGroup: 0x040b,
  dggContainer: 0xf000,
  bstoreContainer: 0xf001,
  fbse: 0xf007,
  fopt: 0xf00b,
  spgrContainer: 0xf003,
  spContainer: 0xf004,
  childAnchor: 0xf00f,
  clientAnchor: 0xf010,
  clientTextbox: 0xf00d,
  clientData: 0xf011,
  placeholderAtom: 0x0bc3,
  progTags: 0x1388,
  progBinaryTag: 0x138a,
  binaryTagData: 0x138b,
  styleTextProp9: 0x0fac,
} as const;

/** Reads the header at `off`; undefined when it does not fit inside `limit`. */
export function recordAt(s: Bytes, off: number, limit: number): Rec | undefined {
  if (off < 0 || off + 8 > limit || off + 8 > s.length) return undefined;
  const vi = s.u16(off);
  const len = s.u32(off + 4);
  const end = off + 8 + len;
  if (end > limit || end > s.length) return undefined;
  return { ver: vi & 0xf, instance: vi >> 4, type: s.u16(off + 2), offset: off, body: off + 8, end };
}

/** The records directly inside [from, to); stops at the first header that does not fit. */
export function children(s: Bytes, from: number, to: number): Rec[] {
  const out: Rec[] = [];
  let off = from;
  while (off + 8 <= to) {
    const r = recordAt(s, off, to);
    if (!r) break;
    out.push(r);
    off = r.end;
  }
  return out;
}

export const isContainer = (r: Rec): boolean => r.ver === 0xf;
