import { type Bytes, decode8 } from '../cfb/bytes.ts';
import { FC, type Fib } from './fib.ts';
import { applyGrpprl, emptyProps, type ParaProps } from './sprm.ts';

export interface Style {
  sti: number;
  name: string;
  istdBase: number;
  /** Paragraph properties the style itself sets (outline level, list), base styles applied first. */
  props: ParaProps;
}

const NO_BASE = 0x0fff;

/** Reads the style sheet ([MS-DOC] 2.9.271 STSH): names, built-in ids and paragraph properties. */
export function readStyles(table: Bytes, fib: Fib): Map<number, Style> {
  const styles = new Map<number, Style>();
  const loc = fib.fcLcb(FC.stshf);
  if (!loc || loc.fc + loc.lcb > table.length) return styles;
  const end = loc.fc + loc.lcb;
  const cbStshi = table.u16(loc.fc);
  const stshi = loc.fc + 2;
  if (cbStshi < 4) return styles;
  const cstd = table.u16(stshi);
  const cbBase = table.u16(stshi + 2);
  const raw: { sti: number; name: string; istdBase: number; upx?: [number, number] }[] = [];
  let off = stshi + cbStshi;
  for (let istd = 0; istd < cstd && off + 2 <= end; istd++) {
    const cbStd = table.u16(off);
    const std = off + 2;
    off = std + cbStd;
    // Word 6/95 STD bases are 8 bytes and names 8-bit; Word 97's are 10 bytes and UTF-16.
    if (cbStd === 0 || off > end || cbBase < (fib.version === 6 ? 8 : 10) || cbStd < cbBase + 2) continue;
    const sti = table.u16(std) & 0x0fff;
    const stk = table.u16(std + 2) & 0x000f;
    const istdBase = table.u16(std + 2) >> 4;
    const cupx = table.u16(std + 4) & 0x000f;
    let p = std + cbBase;
    let name = '';
    if (fib.version === 6) {
      const cch = table.u8(p);
      p += 1;
      if (p + cch > off) continue;
      name = decode8(table.slice(p, cch));
      p += cch + 1;
    } else {
      const cch = table.u16(p);
      p += 2;
      if (p + cch * 2 > off) continue;
      for (let i = 0; i < cch; i++) name += String.fromCharCode(table.u16(p + i * 2));
      p += cch * 2 + 2;
    }
    const entry: (typeof raw)[number] = { sti, name, istdBase };
    // Paragraph styles: the first UPX holds istd + paragraph sprms.
    if (stk === 1 && cupx >= 1 && p + 2 <= off) {
      if ((p - std) % 2) p += 1;
      const cbUpx = table.u16(p);
      if (p + 2 + cbUpx <= off && cbUpx >= 2) entry.upx = [p + 4, p + 2 + cbUpx];
    }
    raw[istd] = entry;
  }
  const resolve = (istd: number, depth: number): ParaProps => {
    const r = raw[istd];
    if (!r || depth > 10) return emptyProps(istd);
    const props = r.istdBase !== NO_BASE && r.istdBase !== istd ? resolve(r.istdBase, depth + 1) : emptyProps(istd);
    props.istd = istd;
    if (r.upx) applyGrpprl(table, r.upx[0], r.upx[1], props, fib.version);
    return props;
  };
  raw.forEach((r, istd) => {
    if (r) styles.set(istd, { sti: r.sti, name: r.name, istdBase: r.istdBase, props: resolve(istd, 0) });
  });
  return styles;
}
