import { badInput, throwIfAborted } from '../../errors.ts';

/**
 * Minimal reader for Compound File Binary containers ([MS-CFB]) as used by Word 97–2003 and
 * PowerPoint 97–2003. It only reads: every offset is checked against the buffer, every sector chain
 * is walked with a visit budget so a cyclic FAT cannot hang the parser.
 */

const SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const END_OF_CHAIN = 0xfffffffe;
const FREE_SECT = 0xffffffff;
const NO_STREAM = 0xffffffff;

export interface CfbEntry {
  name: string;
  /** 1 storage, 2 stream, 5 root. */
  type: number;
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

export interface Cfb {
  /** Names of the streams and storages directly under this storage (the root for `openCfb`). */
  readonly names: readonly string[];
  has(name: string): boolean;
  /** Bytes of a stream directly under this storage; undefined when absent. */
  stream(name: string): Uint8Array | undefined;
  /** A storage directly under this one (Outlook's attachments, recipients), as a Cfb of its own. */
  storage(name: string): Cfb | undefined;
}

class Reader {
  readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u16(off: number): number {
    if (off < 0 || off + 2 > this.bytes.length) throw badInput('The compound file is truncated.');
    return this.view.getUint16(off, true);
  }
  u32(off: number): number {
    if (off < 0 || off + 4 > this.bytes.length) throw badInput('The compound file is truncated.');
    return this.view.getUint32(off, true);
  }
}

export function openCfb(bytes: Uint8Array, signal?: AbortSignal): Cfb {
  if (bytes.length < 512 || SIGNATURE.some((b, i) => bytes[i] !== b)) {
    throw badInput('The file is not a valid OLE compound document.');
  }
  const r = new Reader(bytes);
  const sectorShift = r.u16(0x1e);
  const miniShift = r.u16(0x20);
  if ((sectorShift !== 9 && sectorShift !== 12) || miniShift !== 6) {
    throw badInput('The compound file header is damaged (bad sector size).');
  }
  const sectorSize = 1 << sectorShift;
  const sectorCount = Math.max(0, Math.floor((bytes.length - sectorSize) / sectorSize)) + 1;
  const numFat = r.u32(0x2c);
  const dirStart = r.u32(0x30);
  const miniCutoff = r.u32(0x38);
  const miniFatStart = r.u32(0x3c);
  const difatStart = r.u32(0x44);
  const numDifat = r.u32(0x48);
  if (numFat > sectorCount) throw badInput('The compound file header is damaged (FAT size).');

  const sectorOffset = (s: number): number => {
    const off = (s + 1) * sectorSize;
    // A final partial sector is tolerated: some writers drop trailing padding.
    if (s >= sectorCount + 1 || off >= bytes.length)
      throw badInput('The compound file is truncated (sector out of range).');
    return off;
  };

  // FAT sector list: 109 entries in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109 && fatSectors.length < numFat; i++) {
    const s = r.u32(0x4c + i * 4);
    if (s !== FREE_SECT) fatSectors.push(s);
  }
  let difat = difatStart;
  const difatLimit = Math.min(numDifat, sectorCount);
  for (let n = 0; n < difatLimit && difat !== END_OF_CHAIN && difat !== FREE_SECT && fatSectors.length < numFat; n++) {
    const off = sectorOffset(difat);
    const per = sectorSize / 4 - 1;
    for (let i = 0; i < per && fatSectors.length < numFat; i++) {
      const s = r.u32(off + i * 4);
      if (s !== FREE_SECT) fatSectors.push(s);
    }
    difat = r.u32(off + per * 4);
  }

  const perSector = sectorSize / 4;
  const fat = new Uint32Array(fatSectors.length * perSector);
  fatSectors.forEach((s, i) => {
    const off = sectorOffset(s);
    for (let j = 0; j < perSector; j++) {
      const p = off + j * 4;
      fat[i * perSector + j] = p + 4 <= bytes.length ? r.view.getUint32(p, true) : FREE_SECT;
    }
  });

  const chain = (start: number, table: Uint32Array): number[] => {
    const out: number[] = [];
    let s = start;
    while (s !== END_OF_CHAIN && s !== FREE_SECT) {
      if (s >= table.length || out.length > table.length)
        throw badInput('The compound file is damaged (broken sector chain).');
      out.push(s);
      if ((out.length & 0xfff) === 0) throwIfAborted(signal);
      s = table[s] as number;
    }
    return out;
  };

  /** A stream's bytes; with `upToEnd`, the sectors before the first one past the end of a cut file. */
  const readChain = (start: number, size: number | undefined, upToEnd = false): Uint8Array => {
    const sectors = chain(start, fat);
    const total = size ?? sectors.length * sectorSize;
    if (total > sectors.length * sectorSize)
      throw badInput('The compound file is damaged (stream longer than its sectors).');
    const out = new Uint8Array(total);
    let pos = 0;
    for (const s of sectors) {
      if (pos >= total) break;
      if (upToEnd && (s + 1) * sectorSize >= bytes.length) return out.subarray(0, pos);
      const off = sectorOffset(s);
      const n = Math.min(sectorSize, total - pos, bytes.length - off);
      out.set(bytes.subarray(off, off + n), pos);
      pos += sectorSize;
    }
    return out;
  };

  const dir = readChain(dirStart, undefined);
  const dv = new DataView(dir.buffer, dir.byteOffset, dir.byteLength);
  const entries: CfbEntry[] = [];
  for (let off = 0; off + 128 <= dir.length; off += 128) {
    const nameLen = Math.min(64, dv.getUint16(off + 64, true));
    let name = '';
    for (let i = 0; i + 2 <= nameLen && i < 64; i += 2) {
      const c = dv.getUint16(off + i, true);
      if (c === 0) break;
      name += String.fromCharCode(c);
    }
    entries.push({
      name,
      type: dir[off + 66] as number,
      left: dv.getUint32(off + 68, true),
      right: dv.getUint32(off + 72, true),
      child: dv.getUint32(off + 76, true),
      start: dv.getUint32(off + 116, true),
      size: dv.getUint32(off + 120, true),
    });
  }
  const rootEntry = entries[0];
  if (rootEntry?.type !== 5) throw badInput('The compound file is damaged (no root directory entry).');

  /** Children of a storage: a walk of its sibling tree, each entry visited once. */
  const childrenOf = (first: number): Map<string, CfbEntry> => {
    const top = new Map<string, CfbEntry>();
    const seen = new Set<number>();
    const stack: number[] = [first];
    while (stack.length) {
      const id = stack.pop() as number;
      if (id === NO_STREAM || id >= entries.length || seen.has(id)) continue;
      seen.add(id);
      const e = entries[id] as CfbEntry;
      if (!top.has(e.name)) top.set(e.name, e);
      stack.push(e.left, e.right);
    }
    return top;
  };

  let miniStream: Uint8Array | undefined;
  let miniFat: Uint32Array | undefined;
  const readMini = (e: CfbEntry): Uint8Array => {
    // The mini stream holds every small stream: a cut file that lost its tail (often an embedded
    // object's) keeps the small streams stored before it, which the check per mini sector below finds.
    if (!miniStream) miniStream = readChain(rootEntry.start, undefined, true);
    if (!miniFat) {
      const raw = miniFatStart === END_OF_CHAIN ? new Uint8Array(0) : readChain(miniFatStart, undefined);
      miniFat = new Uint32Array(Math.floor(raw.length / 4));
      const mv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
      for (let i = 0; i < miniFat.length; i++) miniFat[i] = mv.getUint32(i * 4, true);
    }
    const sectors = chain(e.start, miniFat);
    if (e.size > sectors.length * 64) throw badInput('The compound file is damaged (mini stream too short).');
    const out = new Uint8Array(e.size);
    let pos = 0;
    for (const s of sectors) {
      if (pos >= e.size) break;
      const off = s * 64;
      if (off + 64 > miniStream.length) throw badInput('The compound file is damaged (mini sector out of range).');
      out.set(miniStream.subarray(off, off + Math.min(64, e.size - pos)), pos);
      pos += 64;
    }
    return out;
  };

  const streamOf = (e: CfbEntry): Uint8Array => {
    if (e.size === 0) return new Uint8Array(0);
    return e.size < miniCutoff ? readMini(e) : readChain(e.start, e.size);
  };
  // A storage's own child tree can point back at an ancestor: each storage is opened once per path.
  const view = (first: number, ancestors: ReadonlySet<number>): Cfb => {
    const top = childrenOf(first);
    return {
      names: [...top.keys()],
      has: (name) => top.has(name),
      stream(name) {
        const e = top.get(name);
        return e?.type === 2 ? streamOf(e) : undefined;
      },
      storage(name) {
        const e = top.get(name);
        if (e?.type !== 1 || ancestors.has(e.child)) return undefined;
        return view(e.child, new Set([...ancestors, e.child]));
      },
    };
  };
  return view(rootEntry.child, new Set([rootEntry.child]));
}
