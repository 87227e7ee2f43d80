import type { Facts, Grid } from './facts.ts';
import { labelScore, labelTokens, valueKind, variantsOf } from './labels.ts';
import { cleanText, type FieldSchema, readValue } from './read.ts';
import { numbers } from './values.ts';

/**
 * Arrays of objects: rows of the table whose header names the item properties best, or, when no
 * table fits, the "<code> <qty> @ <price> … <line total>" lines of a till receipt.
 */

type Row = Record<string, unknown>;

const TOTAL_ROW = /^(sub ?)?totals?\b|^grand total|^balance|^amount due/i;

function columnFor(head: readonly string[], name: string, schema: FieldSchema, prompt: string | undefined) {
  const variants = variantsOf(name, schema.description, prompt);
  let col = -1;
  let score = 0;
  head.forEach((h, c) => {
    const tokens = labelTokens(h);
    variants.forEach((v, vi) => {
      const s = labelScore(tokens, v) - vi * 0.01;
      if (s > score) {
        score = s;
        col = c;
      }
    });
  });
  return { col, score };
}

function rowsOf(grid: Grid, headAt: number, cols: Map<string, number>, props: Record<string, FieldSchema>): Row[] {
  const out: Row[] = [];
  const head = grid.rows[headAt] ?? [];
  for (const r of grid.rows.slice(headAt + 1)) {
    const first = r.find(Boolean) ?? '';
    if (TOTAL_ROW.test(first) || r.every((c, i) => c === head[i])) continue;
    const item: Row = {};
    for (const [name, col] of cols) {
      const cell = r[col] ?? '';
      if (!cell) continue;
      const schema = props[name] ?? {};
      const v = readValue(cell, valueKind(name, schema), schema, 1);
      if (v) item[name] = v.value;
    }
    const filled = Object.keys(item).length;
    // A row filling one of three columns or more under an item is that item's wrapped line or
    // note ("(Runtime: 142 min)" under a film's row), not an item of its own.
    if (filled > 1 || (filled === 1 && (cols.size < 3 || !out.length))) out.push(item);
  }
  return out;
}

export function arrayFromTables(facts: Facts, items: FieldSchema, prompt: string | undefined): Row[] | undefined {
  const props = items.properties ?? {};
  const names = Object.keys(props);
  const need = Math.min(2, names.length);
  let bestRows: Row[] | undefined;
  let bestScore = 0;
  for (const grid of facts.tables) {
    for (let headAt = 0; headAt < Math.min(3, grid.rows.length - 1); headAt++) {
      const head = grid.rows[headAt] ?? [];
      const cols = new Map<string, number>();
      let score = 0;
      for (const name of names) {
        const m = columnFor(head, name, props[name] ?? {}, prompt);
        if (m.col >= 0 && ![...cols.values()].includes(m.col)) {
          cols.set(name, m.col);
          score += m.score;
        }
      }
      if (cols.size < need || score <= bestScore) continue;
      const rows = rowsOf(grid, headAt, cols, props);
      if (rows.length) {
        bestRows = rows;
        bestScore = score;
      }
    }
  }
  return bestRows;
}

type Role = 'quantity' | 'unitPrice' | 'lineTotal' | 'code' | 'description' | 'discount';

function roleOf(name: string, schema: FieldSchema): Role | undefined {
  const words = labelTokens(name.replace(/([a-z0-9])([A-Z])/g, '$1 $2'));
  const has = (...ws: string[]) => ws.some((w) => words.includes(w));
  if (has('qty', 'quantity', 'count', 'units')) return 'quantity';
  if (has('discount')) return 'discount';
  if (has('total', 'amount', 'extended', 'subtotal')) return 'lineTotal';
  if (has('price', 'rate', 'each') || (has('cost') && has('unit'))) return 'unitPrice';
  if (valueKind(name, schema) === 'id' || has('sku', 'code')) return 'code';
  if (has('description', 'name', 'item', 'product', 'title', 'desc', 'label')) return 'description';
  return undefined;
}

const ITEM_RE =
  /(?:([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*\d[A-Z0-9]*)\s+)?(\d+(?:\.\d+)?)\s*(?:@|×|x)\s*(-?[$€£]\s?-?\d[\d,]*(?:\.\d+)?|\d[\d,.]*[.,]\d{2}(?:\s?[$€£])?)/g;
const SEPARATOR = /[-=_*]{5,}/g;

/** Receipt lines: "AUDIO-5521 1 @ $349.99 Member Discount $-50.00 $299.99" or "Espresso 2 x 3,50 € 7,00 €". */
export function arrayFromText(facts: Facts, items: FieldSchema): Row[] | undefined {
  const props = Object.entries(items.properties ?? {});
  const roles = props.map(([n, s]) => [n, roleOf(n, s)] as const).filter((x): x is [string, Role] => !!x[1]);
  if (!roles.some(([, r]) => r === 'quantity' || r === 'unitPrice')) return undefined;
  const seen = new Set<string>();
  const text = facts.units
    .filter((u) => u.source !== 'cell' || (!seen.has(u.text) && seen.add(u.text)))
    .map((u) => u.text)
    .join('\n');
  const matches = [...text.matchAll(ITEM_RE)];
  if (matches.length < 2) return undefined;
  const out: Row[] = [];
  let prevEnd = 0;
  matches.forEach((m, i) => {
    const start = m.index ?? 0;
    const end = start + m[0].length;
    const limit = matches[i + 1]?.index ?? Math.min(text.length, end + 200);
    const tail = text.slice(end, limit);
    // The line total is the last amount of the run right after the price; a long stretch of words
    // or a rule line ends the run (that text is the next item's description or the footer).
    let consumed = 0;
    let lineTotal: number | undefined;
    let discount: number | undefined;
    for (const n of numbers(tail).filter((x) => x.currency)) {
      const gap = tail.slice(consumed, n.index);
      if (gap.split(/\s+/).filter(Boolean).length > 3 || SEPARATOR.test(gap)) break;
      SEPARATOR.lastIndex = 0;
      if (n.value < 0) discount = n.value;
      else lineTotal = n.value;
      consumed = n.end;
    }
    SEPARATOR.lastIndex = 0;
    let description = text.slice(prevEnd, start);
    const rules = [...description.matchAll(SEPARATOR)];
    const lastRule = rules.at(-1);
    if (lastRule) description = description.slice((lastRule.index ?? 0) + lastRule[0].length);
    description = cleanText(description.replace(/\s+/g, ' '));
    prevEnd = end + consumed;
    const qty = Number(m[2]);
    const price = numbers(m[3] ?? '')[0]?.value;
    const item: Row = {};
    for (const [name, role] of roles) {
      const value =
        role === 'quantity'
          ? qty
          : role === 'unitPrice'
            ? price
            : role === 'lineTotal'
              ? (lineTotal ?? (price === undefined ? undefined : Math.round(price * qty * 100) / 100))
              : role === 'discount'
                ? discount
                : role === 'code'
                  ? m[1]
                  : description || undefined;
      if (value !== undefined) item[name] = value;
    }
    out.push(item);
  });
  return out;
}
