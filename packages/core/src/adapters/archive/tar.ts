import { badInput } from '../../errors.ts';

/**
 * Tar archives (POSIX ustar, GNU long names, pax `path` records): regular files in archive order.
 * Every header is checked against the buffer; the entry count is capped before anything is copied.
 */

export interface TarEntry {
  path: string;
  /** Bytes of a regular file (a view of the archive, not a copy). */
  bytes?: Uint8Array;
  /** Why the entry holds no document (a link, a device, a directory). */
  kind: 'file' | 'directory' | 'other';
}

const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');
const field = (b: Uint8Array, at: number, len: number) => {
  const raw = b.subarray(at, at + len);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul < 0 ? len : nul);
};

/** A size field: octal text, or GNU's base-256 (high bit set) for large sizes. */
function sizeOf(b: Uint8Array, at: number): number {
  if (((b[at] as number) & 0x80) !== 0) {
    let n = 0;
    for (let i = 1; i < 12; i++) n = n * 256 + (b[at + i] as number);
    return n;
  }
  const text = latin1.decode(field(b, at, 12)).trim();
  return text ? Number.parseInt(text, 8) : 0;
}

function checksumOk(b: Uint8Array, at: number): boolean {
  const stored = Number.parseInt(latin1.decode(field(b, at + 148, 8)).trim() || 'x', 8);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : (b[at + i] as number);
  return stored === sum;
}

/** pax extended header records: `len key=value\n`. */
function paxPath(b: Uint8Array): string | undefined {
  const text = utf8.decode(b);
  const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(text);
  return m?.[1];
}

/** The entries, and whether the archive stopped short of its end-of-archive blocks (a cut file). */
export function readTar(b: Uint8Array, maxEntries: number): { entries: TarEntry[]; truncated: boolean } {
  const out: TarEntry[] = [];
  let ended = false;
  let at = 0;
  let longName: string | undefined;
  while (at + 512 <= b.length) {
    const h = at;
    // Two zero blocks end the archive; one is enough to stop.
    if (b.subarray(at, at + 512).every((x) => x === 0)) {
      ended = true;
      break;
    }
    if (!checksumOk(b, at)) {
      if (out.length === 0) throw badInput('The file is not a readable tar archive (bad header checksum).');
      break;
    }
    const size = sizeOf(b, at + 124);
    const type = String.fromCharCode((b[at + 156] as number) || 0x30);
    const dataStart = at + 512;
    const dataEnd = dataStart + size;
    if (!Number.isFinite(size) || size < 0) throw badInput('The tar archive is damaged (a bad entry size).');
    // A cut archive: the entries before the cut are whole.
    if (dataEnd > b.length) break;
    const data = b.subarray(dataStart, dataEnd);
    at = dataStart + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = utf8.decode(field(data, 0, data.length));
      continue;
    }
    if (type === 'x') {
      longName = paxPath(data) ?? longName;
      continue;
    }
    if (type === 'g' || type === 'K') continue;
    const ustar = latin1.decode(b.subarray(h + 257, h + 262)) === 'ustar';
    const prefix = ustar ? utf8.decode(field(b, h + 345, 155)) : '';
    const name = utf8.decode(field(b, h, 100));
    const path = longName ?? (prefix ? `${prefix}/${name}` : name);
    longName = undefined;
    if (out.length >= maxEntries)
      throw badInput(`The tar archive has more than ${maxEntries} entries; the limit is ${maxEntries}.`);
    if (type === '0' || type === '7') out.push({ path, bytes: data, kind: 'file' });
    else out.push({ path, kind: type === '5' ? 'directory' : 'other' });
  }
  if (!out.length && !ended) throw badInput('The file is not a readable tar archive (truncated or damaged).');
  return { entries: out, truncated: !ended };
}
