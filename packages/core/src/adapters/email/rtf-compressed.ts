import { badInput } from '../../errors.ts';

/**
 * Compressed RTF ([MS-OXRTFCP]), the body format of Outlook items that carry no plain or HTML
 * body: LZ77 over a 4 KB ring buffer primed with a fixed RTF preamble. The output is capped at
 * the size the header declares, and at MAX_RTF, whatever the header says.
 */

const PREBUF =
  '{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss \\fmodern \\fscript \\fdecor MS Sans SerifSymbolArialTimes New RomanCourier{\\colortbl\\red0\\green0\\blue0\r\n\\par \\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx';
const COMPRESSED = 0x75465a4c; // "LZFu"
const UNCOMPRESSED = 0x414c454d; // "MELA"
const MAX_RTF = 64 << 20;

export function decompressRtf(data: Uint8Array): Uint8Array {
  if (data.length < 16) throw badInput('compressed RTF header is truncated');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const rawSize = view.getUint32(4, true);
  const type = view.getUint32(8, true);
  if (type === UNCOMPRESSED) return data.subarray(16, 16 + Math.min(rawSize, data.length - 16));
  if (type !== COMPRESSED) throw badInput('unknown compressed RTF type');
  const size = Math.min(rawSize, MAX_RTF);
  const dict = new Uint8Array(4096);
  for (let i = 0; i < PREBUF.length; i++) dict[i] = PREBUF.charCodeAt(i);
  let write = PREBUF.length;
  const out = new Uint8Array(size);
  let n = 0;
  let pos = 16;
  while (pos < data.length && n < size) {
    const control = data[pos++] as number;
    for (let bit = 0; bit < 8 && pos < data.length && n < size; bit++) {
      if ((control & (1 << bit)) === 0) {
        const b = data[pos++] as number;
        out[n++] = b;
        dict[write] = b;
        write = (write + 1) & 0xfff;
        continue;
      }
      if (pos + 1 >= data.length) return out.subarray(0, n);
      const ref = ((data[pos] as number) << 8) | (data[pos + 1] as number);
      pos += 2;
      const offset = ref >> 4;
      const length = (ref & 0xf) + 2;
      if (offset === write) return out.subarray(0, n);
      for (let k = 0; k < length && n < size; k++) {
        const b = dict[(offset + k) & 0xfff] as number;
        out[n++] = b;
        dict[write] = b;
        write = (write + 1) & 0xfff;
      }
    }
  }
  return out.subarray(0, n);
}
