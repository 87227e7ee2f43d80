import { letters, roman } from '../../util/numerals.ts';
import type { Bytes } from '../cfb/bytes.ts';
import { FC, type Fib } from './fib.ts';

/** One level of a list definition (LVL, [MS-DOC] 2.9.150). */
export interface ListLevel {
  ordered: boolean;
  start: number;
  /** Number format (MSONFC): 0 decimal, 1/2 upper/lower roman, 3/4 upper/lower letter, 23 bullet. */
  nfc: number;
  /** Number text template: characters 0–8 stand for the numbers of those levels. */
  template: string;
}

export interface Lists {
  level(ilfo: number, ilvl: number): ListLevel | undefined;
  /**
   * Advances the counter of list `ilfo` at `ilvl` (deeper levels restart) and returns the
   * paragraph's number text ("1.2"), or '' for bullets and unknown lists.
   */
  next(ilfo: number, ilvl: number): string;
  /** The counter of list `ilfo` at `ilvl` after the last `next`. */
  current(ilfo: number, ilvl: number): number;
}

const NFC_BULLET = 23;
const NFC_NONE = 255;

export function formatNumber(n: number, nfc: number): string {
  switch (nfc) {
    case 1:
      return roman(n).toUpperCase();
    case 2:
      return roman(n);
    case 3:
      return letters(n).toUpperCase();
    case 4:
      return letters(n);
    default:
      return String(n);
  }
}

/** Reads PlfLst (list definitions with their levels) and PlfLfo (list instances) ([MS-DOC] 2.9.147, 2.9.146). */
export function readLists(table: Bytes, fib: Fib): Lists {
  const byLsid = new Map<number, ListLevel[]>();
  const lfoLsid: number[] = [];
  const lst = fib.fcLcb(FC.plfLst);
  if (lst && lst.fc + lst.lcb <= table.length) {
    try {
      const count = table.i16(lst.fc);
      const lstfs: { lsid: number; simple: boolean }[] = [];
      for (let i = 0; i < count; i++) {
        const at = lst.fc + 2 + i * 28;
        lstfs.push({ lsid: table.i32(at), simple: (table.u8(at + 26) & 1) !== 0 });
      }
      // LVL records follow the PlfLst in the table stream, 1 or 9 per list.
      let p = lst.fc + 2 + count * 28;
      for (const l of lstfs) {
        const levels: ListLevel[] = [];
        for (let k = 0; k < (l.simple ? 1 : 9); k++) {
          const start = table.i32(p);
          const nfc = table.u8(p + 4);
          const cbChpx = table.u8(p + 24);
          const cbPapx = table.u8(p + 25);
          p += 28 + cbChpx + cbPapx;
          const cch = Math.min(table.u16(p), 64);
          let template = '';
          for (let i = 0; i < cch; i++) template += String.fromCharCode(table.u16(p + 2 + i * 2));
          p += 2 + table.u16(p) * 2;
          levels.push({ ordered: nfc !== NFC_BULLET && nfc !== NFC_NONE, start, nfc, template });
        }
        byLsid.set(l.lsid, levels);
      }
    } catch {
      // A damaged list table only costs list numbering; the text is still good.
    }
  }
  const lfo = fib.fcLcb(FC.plfLfo);
  if (lfo && lfo.fc + lfo.lcb <= table.length && lfo.lcb >= 4) {
    const n = Math.min(table.u32(lfo.fc), Math.floor((lfo.lcb - 4) / 16));
    for (let i = 0; i < n; i++) lfoLsid.push(table.i32(lfo.fc + 4 + i * 16));
  }
  const counters = new Map<number, number[]>();
  const levelsOf = (ilfo: number): ListLevel[] | undefined => {
    const lsid = lfoLsid[ilfo - 1];
    return lsid === undefined ? undefined : byLsid.get(lsid);
  };
  return {
    level(ilfo, ilvl) {
      const levels = levelsOf(ilfo);
      return levels?.[Math.min(ilvl, levels.length - 1)];
    },
    current(ilfo, ilvl) {
      const lsid = lfoLsid[ilfo - 1];
      const counts = lsid === undefined ? undefined : counters.get(lsid);
      return counts?.[Math.min(ilvl, counts.length - 1)] ?? 1;
    },
    next(ilfo, ilvl) {
      const lsid = lfoLsid[ilfo - 1];
      const levels = levelsOf(ilfo);
      if (lsid === undefined || !levels) return '';
      const lvl = Math.min(ilvl, levels.length - 1);
      const counts = counters.get(lsid) ?? levels.map((l) => l.start - 1);
      counters.set(lsid, counts);
      counts[lvl] = (counts[lvl] ?? 0) + 1;
      for (let k = lvl + 1; k < counts.length; k++) counts[k] = (levels[k]?.start ?? 1) - 1;
      const here = levels[lvl] as ListLevel;
      if (!here.ordered) return '';
      let out = '';
      for (const ch of here.template) {
        const code = ch.charCodeAt(0);
        if (code < 9) {
          const l = levels[code];
          // A level not yet reached counts as its start value.
          out += formatNumber(Math.max(counts[code] ?? 0, l?.start ?? 1), code === lvl ? here.nfc : (l?.nfc ?? 0));
        } else out += ch;
      }
      return out.trim();
    },
  };
}
