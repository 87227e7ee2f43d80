/**
 * SheetJS writes out every copy of a repeated ODS cell that has content: a row with
 * `table:number-rows-repeated="1000000000"` holding one text cell repeated across 16,384 columns is
 * a few hundred bytes that fill the heap until the process dies. Blank repeats (LibreOffice pads every
 * sheet with a million of them) are self-closing cells and cost SheetJS nothing, so they are left
 * alone; repeats of cells with content are cut before SheetJS sees the part, so that one table asks
 * for at most `maxCells` copies. Past that budget content rows still appear, once each.
 */

const TAG = /<(\/?)table:(table|table-row|table-cell|covered-table-cell)(?=[\s/>])([^>]*?)(\/?)>/g;
const ROWS = /table:number-rows-repeated\s*=\s*(["'])(\d+)\1/;
const COLS = /table:number-columns-repeated\s*=\s*(["'])(\d+)\1/;

interface Edit {
  start: number;
  end: number;
  text: string;
}

const repeatOf = (tag: string, re: RegExp): number => {
  const m = re.exec(tag);
  return m ? Math.max(1, Number(m[2])) : 1;
};

const withRepeat = (tag: string, re: RegExp, n: number, name: string): string => tag.replace(re, `${name}="${n}"`);

/** The content part with content repeats cut; `capped` tells whether anything was changed. */
export function capOdsRepeats(xml: string, maxCells: number): { xml: string; capped: boolean } {
  const edits: Edit[] = [];
  let left = maxCells;
  let row: { start: number; end: number; tag: string } | undefined;
  let copies = 0;
  for (const m of xml.matchAll(TAG)) {
    const [tag, close, name, , selfClosing] = m;
    const start = m.index;
    const end = start + tag.length;
    if (name === 'table' && !close) left = maxCells;
    else if (name === 'table-row' && !close) {
      row = selfClosing ? undefined : { start, end, tag };
      copies = 0;
    } else if (name === 'table-row' && close && row) {
      const repeat = repeatOf(row.tag, ROWS);
      if (copies > 0) {
        const allowed = Math.max(1, Math.floor(left / copies));
        if (repeat > allowed)
          edits.push({
            start: row.start,
            end: row.end,
            text: withRepeat(row.tag, ROWS, allowed, 'table:number-rows-repeated'),
          });
        left = Math.max(0, left - Math.min(repeat, allowed) * copies);
      }
      row = undefined;
    } else if (name === 'table-cell' && !close && !selfClosing && row) {
      const repeat = repeatOf(tag, COLS);
      const allowed = Math.max(1, Math.min(repeat, left - copies));
      if (repeat > allowed)
        edits.push({ start, end, text: withRepeat(tag, COLS, allowed, 'table:number-columns-repeated') });
      copies += allowed;
    }
  }
  if (!edits.length) return { xml, capped: false };
  let out = '';
  let at = 0;
  // A row's edit is decided at its end tag, after its cells' edits: apply them in document order.
  for (const e of edits.sort((a, b) => a.start - b.start)) {
    out += xml.slice(at, e.start) + e.text;
    at = e.end;
  }
  return { xml: out + xml.slice(at), capped: true };
}
