/** One output that did not fit in a tool result. */
export interface Cut {
  field: string;
  returned: number;
  total: number;
  unit: 'characters' | 'items';
}

/**
 * The characters one tool result may still spend. Text is cut at a paragraph or line break when
 * one is near the limit (never inside a surrogate pair), lists at an item; each cut is recorded
 * so the result can say what is missing and how to get it.
 */
export class Budget {
  readonly cuts: Cut[] = [];
  constructor(private left: number) {}

  get remaining(): number {
    return this.left;
  }

  text(field: string, s: string): string {
    if (s.length <= this.left) {
      this.left -= s.length;
      return s;
    }
    const end = breakBefore(s, this.left);
    this.cuts.push({ field, returned: end, total: s.length, unit: 'characters' });
    this.left = 0;
    return s.slice(0, end);
  }

  items<T>(field: string, list: readonly T[], size: (item: T) => number): T[] {
    let n = 0;
    for (const item of list) {
      const cost = size(item);
      if (cost > this.left) break;
      this.left -= cost;
      n++;
    }
    if (n < list.length) {
      this.cuts.push({ field, returned: n, total: list.length, unit: 'items' });
      this.left = 0;
    }
    return list.slice(0, n);
  }
}

/** Where to cut `s` to at most `limit` characters: the last blank line or line break in the final fifth. */
function breakBefore(s: string, limit: number): number {
  const floor = Math.floor(limit * 0.8);
  for (const sep of ['\n\n', '\n']) {
    const at = s.lastIndexOf(sep, limit - sep.length);
    if (at >= floor) return at + sep.length;
  }
  const code = s.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}
