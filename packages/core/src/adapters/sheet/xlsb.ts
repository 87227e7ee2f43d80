/**
 * Excel binary (.xlsb) parts are records whose strings carry their own length (a 32-bit count of
 * UTF-16 units). SheetJS trusts that count even when it runs past the record: a damaged count makes
 * it read the following records as text (sheet names in mojibake) and, without Node's Buffer, loop
 * over millions of characters synchronously (one 9 KB file gave 18 MB of Markdown). Before SheetJS
 * sees a part, every string count that overruns its record is cut to what the record holds.
 */

/** Record type → offset of its first string, and how many strings follow back to back. */
const STRINGS: ReadonlyMap<number, readonly [offset: number, count: number]> = new Map([
  [0x0006, [8, 1]], // BrtCellSt: cell header, value
  [0x0008, [8, 1]], // BrtFmlaString: cell header, cached value
  [0x0013, [1, 1]], // BrtSSTItem: flags, text
  [0x002c, [2, 1]], // BrtFmt: format id, format code
  [0x003e, [9, 1]], // BrtCellRString: cell header, flags, text
  [0x0099, [8, 1]], // BrtWbProp: flags, theme version, code name
  [0x009c, [8, 2]], // BrtBundleSh: state, tab id, relationship id, sheet name
  [0x0278, [0, 1]], // BrtCommentAuthor
  [0x027d, [1, 1]], // BrtCommentText: flags, text
]);

const NULL_STRING = 0xffffffff;

/** Reads a record header (7-bit varints); null when it runs past the part. */
function header(b: Uint8Array, at: number): { type: number; body: number; end: number } | null {
  let p = at;
  if (p >= b.length) return null;
  let type = (b[p] as number) & 0x7f;
  if ((b[p++] as number) & 0x80) {
    if (p >= b.length) return null;
    type += ((b[p++] as number) & 0x7f) << 7;
  }
  let length = 0;
  for (let i = 0; i < 4; i++) {
    if (p >= b.length) return null;
    const byte = b[p++] as number;
    length += (byte & 0x7f) * 2 ** (7 * i);
    if (!(byte & 0x80)) break;
  }
  return { type, body: p, end: Math.min(b.length, p + length) };
}

/**
 * Cuts, in place, string lengths that overrun their record. Returns how many were cut (0 for a
 * sound part).
 */
export function repairXlsbStrings(part: Uint8Array): number {
  const view = new DataView(part.buffer, part.byteOffset, part.byteLength);
  let cut = 0;
  let at = 0;
  for (let rec = header(part, 0); rec; rec = header(part, at)) {
    const layout = STRINGS.get(rec.type);
    if (layout) {
      let p = rec.body + layout[0];
      for (let i = 0; i < layout[1] && p + 4 <= rec.end; i++) {
        const raw = view.getUint32(p, true);
        const units = raw === NULL_STRING && rec.type === 0x009c && i === 0 ? 0 : raw;
        const room = Math.floor((rec.end - p - 4) / 2);
        if (units > room) {
          view.setUint32(p, room, true);
          cut++;
        }
        p += 4 + 2 * Math.min(units, room);
      }
    }
    at = rec.end;
  }
  return cut;
}
