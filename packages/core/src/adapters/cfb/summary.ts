import { Bytes, decode8, decode16 } from './bytes.ts';

export interface Summary {
  title?: string;
  subject?: string;
  author?: string;
  keywords?: string;
}

const PROPS: Record<number, keyof Summary> = { 2: 'title', 3: 'subject', 4: 'author', 5: 'keywords' };

const utf8 = new TextDecoder('utf-8');

function decodeString(codepage: number, b: Uint8Array): string {
  if (codepage === 65001) return utf8.decode(b);
  if (codepage === 1200) return decode16(b);
  // Other ANSI code pages are read as cp1252: right for Western documents, readable for the rest.
  return decode8(b);
}

/**
 * Title, subject, author and keywords from a `\x05SummaryInformation` property set ([MS-OLEPS]).
 * Metadata is a nicety: any damage yields an empty result instead of failing the document.
 */
export function readSummary(data: Uint8Array | undefined): Summary {
  const out: Summary = {};
  if (!data || data.length < 48) return out;
  try {
    const s = new Bytes(data, 'summary information');
    if (s.u16(0) !== 0xfffe) return out;
    const sec = s.u32(44);
    const count = Math.min(s.u32(sec + 4), 256);
    let codepage = 1252;
    const found: [keyof Summary, number][] = [];
    for (let i = 0; i < count; i++) {
      const id = s.u32(sec + 8 + i * 8);
      const at = sec + s.u32(sec + 12 + i * 8);
      if (id === 1 && s.u32(at) === 2) codepage = s.u16(at + 4);
      const key = PROPS[id];
      if (key) found.push([key, at]);
    }
    for (const [key, at] of found) {
      const type = s.u32(at);
      const n = s.u32(at + 4);
      let v: string | undefined;
      if (type === 30) v = decodeString(codepage, s.slice(at + 8, Math.min(n, 4096)));
      else if (type === 31) v = decode16(s.slice(at + 8, Math.min(n, 2048) * 2));
      v = v?.replace(/\0[\s\S]*$/, '').trim();
      if (v) out[key] = v;
    }
  } catch {
    // Damaged metadata is ignored; the body is what matters.
  }
  return out;
}
