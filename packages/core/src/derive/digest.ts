import type { Root } from '../tree/types.ts';
import { collectFacts, type Grid, looksLikeLabel, type Pair } from './facts.ts';
import { firstDate, firstEmail, firstIdentifier, firstPhone, norm, numbers } from './values.ts';

/**
 * What a record-like document (invoice, form, receipt, spreadsheet, data sheet) is about, for a
 * summary when it has too little prose to rank: its name, then its most informative labelled
 * values, then what its data tables list. Values are weighed by their kind (an amount, a date or a
 * reference says more than a yes/no or a bare count), the largest amount shown (a total) first;
 * ties go to reading order, and the chosen facts are listed in reading order.
 */

export interface Digest {
  /** Title or first heading; empty when the document names itself nowhere. */
  lead: string;
  /** "Label: value", in reading order, best first when they do not all fit. */
  facts: { text: string; kind: Kind; score: number; order: number }[];
  /** "Table: header, header — n rows" for each data table, in reading order. */
  tables: { head: string[]; rows: number; order: number; caption?: string }[];
  /** Characters of text the facts and data tables account for. */
  covered: number;
}

/** A title that only names a file or its absence ("(anonymous)", "untitled", "report_v2.docx"). */
const placeholderTitle = (t: string) =>
  /^[([{<].*[)\]}>]$/.test(t) || /^[\p{Ll}\d_-]+$/u.test(t) || /\.[a-z0-9]{2,4}$/i.test(t);

interface Header {
  names: string[];
  /** Row index of the header. */
  at: number;
  /** Text of a row spanning the table above its header ("Quarterly sales"). */
  caption?: string;
}

const distinct = (r: readonly string[]) => r.filter((c, i) => c && c !== r[i - 1]);

/** A column name: a label, or a short name with digits ("FY2024", "Phone 1"), never an amount or a date. */
const columnName = (c: string) =>
  !/:\s*$/.test(c) &&
  !firstDate(c) &&
  !numbers(c).some((x) => x.currency || x.percent) &&
  (looksLikeLabel(c) || (c.length <= 32 && /\p{L}/u.test(c)));

/**
 * A row naming the columns, with at least two rows of data under it: a list of records, not a form.
 * It may sit under a caption row spanning the table.
 */
function headerOf(grid: Grid): Header | undefined {
  let at = 0;
  while (at < 2 && distinct(grid.rows[at] ?? []).length === 1 && (grid.rows[at]?.length ?? 0) > 1) at++;
  const head = grid.rows[at];
  const body = grid.rows.slice(at + 1);
  if (!head || body.length < 2) return undefined;
  const names = distinct(head);
  if (names.length < 2 || !names.every(columnName)) return undefined;
  if (names.length === 2) {
    // Two columns could as well be labels and their values ("Cinema | Downtown Multiplex"): they are
    // when the first column holds labels and the second values of mixed kinds (a name, a date, an
    // amount), where a column of records holds one kind.
    if (!names.every(looksLikeLabel)) return undefined;
    const kinds = new Set(body.map((r) => weigh(distinct(r)[1] ?? '')[0]));
    if (kinds.size > 1 && body.every((r) => looksLikeLabel(distinct(r)[0] ?? ''))) return undefined;
  }
  // A header whose names recur down the table is a form laid out in columns ("Name: | … | Date: | …").
  if (body.some((r) => r.some((c) => c && names.includes(c)))) return undefined;
  const caption = at ? distinct(grid.rows[0] ?? [])[0] : undefined;
  return { names, at, ...(caption ? { caption } : {}) };
}

/** Label/value rows: a label and its value, or two such pairs side by side, per row. */
const isForm = (grid: Grid) => grid.rows.every((r) => [0, 2, 4].includes(distinct(r).length));

/** A row that sums the table up: a label, then only blank or spanned cells, then the value ("Total | | | 2,944"). */
function isSummaryRow(row: readonly string[]): boolean {
  const cells = row.map((c) => c.trim());
  const last = cells.at(-1);
  if (!cells[0] || !last || cells.length < 3 || !looksLikeLabel(cells[0])) return false;
  return cells.slice(1, -1).every((c) => !c || c === cells[0]);
}

export type Kind = 'amount' | 'date' | 'reference' | 'contact' | 'text' | 'number' | 'other';

/** What kind of value this is, and how much such a value says on its own. */
function weigh(value: string): [Kind, number] {
  const nums = numbers(value);
  if (nums.some((n) => n.currency)) return ['amount', 3];
  if (firstDate(value)) return ['date', 2.5];
  // A reference: digits with letters or joined by marks ("INV-2031", "2024-12-5678", "PO 88-1207").
  const id = firstIdentifier(value, 2);
  if (id && /\d/.test(id.value) && (/\p{L}/u.test(id.value) || /\d[-/#]\d/.test(id.value))) return ['reference', 2];
  if (firstEmail(value) || firstPhone(value)) return ['contact', 1];
  // Words and names; a lone short Latin word ("no", "Yes", "n/a") says little.
  const letters = (value.match(/\p{L}/gu) ?? []).length;
  if (letters >= 2 && !/^[\p{Script=Latin}/]{1,3}$/u.test(value.trim())) return ['text', 1.5];
  if (nums.length) return ['number', 1];
  return ['other', 0.5];
}

const balanced = (s: string) => {
  let depth = 0;
  for (const ch of s) {
    depth += ch === '(' || ch === '[' ? 1 : ch === ')' || ch === ']' ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
};

function usable(p: Pair, grids: Map<number, Grid>): boolean {
  const v = p.value;
  if (v.length > 80 || (v.match(/[\p{L}\p{N}]/gu) ?? []).length < 2 || /:$/.test(v) || norm(v) === norm(p.label))
    return false;
  // A label is a name, not the opening of a sentence ("Also, don't forget:", "We found two. Then:").
  if (!looksLikeLabel(p.label) || /[,;!?]|\.\s/.test(p.label)) return false;
  // Text cut mid-aside ("Interfaces):", "(Hyper-Connected") is layout debris, not a field.
  if (!balanced(p.label) || !balanced(v)) return false;
  if (p.source === 'form' || p.source === 'inline') return true;
  const grid = grids.get(p.order);
  if (!grid) return false;
  const head = headerOf(grid);
  if (!head) {
    // "Name | Objective" over one record: the first row names the columns, it is no label/value row.
    const first = grid.rows[0] ?? [];
    const named = grid.rows.length === 2 && first.every((c) => !c || looksLikeLabel(c));
    if (named) return p.source === 'column';
    return isForm(grid) && p.source === 'row';
  }
  // In a list of records only the rows that sum it up are facts of the document ("Total | | | 2,944").
  if (p.source !== 'row') return false;
  return grid.rows.some((r) => isSummaryRow(r) && r[0] === p.label && r.at(-1) === v);
}

export function digestOf(tree: Root): Digest {
  const facts = collectFacts(tree);
  const title = typeof tree.metadata.title === 'string' ? tree.metadata.title.replace(/\s+/g, ' ').trim() : '';
  // Untitled and without headings (a receipt, a scanned form): its first line, when it is short.
  const named =
    facts.units.find((u) => u.source === 'heading') ??
    facts.units.find((u) => u.source === 'line' && u.text.length <= 80);
  const lead = title && !placeholderTitle(title) ? title : (named?.text ?? '');
  const grids = new Map(facts.tables.map((g) => [g.order, g]));
  const said = new Set<string>();
  const leadNorm = norm(lead);
  const chosen: Digest['facts'] = [];
  const pairs = facts.pairs.filter((p) => usable(p, grids));
  const totals = pairs.flatMap((p) =>
    numbers(p.value)
      .filter((n) => n.currency)
      .map((n) => ({ p, v: Math.abs(n.value) })),
  );
  const top = totals.reduce((a, t) => Math.max(a, t.v), 0);
  // Reading order: table pairs were found before the form and inline ones of the same page.
  const inOrder = pairs.map((p, i) => ({ p, i })).sort((a, b) => a.p.order - b.p.order || a.i - b.i);
  for (const { p } of inOrder) {
    const v = norm(p.value);
    // Said once: a value repeated under another label, or already in the title, adds nothing.
    if (said.has(v) || (v && ` ${leadNorm} `.includes(` ${v} `))) continue;
    said.add(v);
    const isTop = top > 0 && totals.some((t) => t.p === p && t.v === top);
    const label = p.label.replace(/:\s*$/, '');
    const [kind, score] = weigh(p.value);
    chosen.push({ text: `${label}: ${p.value}`, kind, score: score + (isTop ? 1 : 0), order: p.order });
  }
  let covered = pairs.reduce((n, p) => n + p.label.length + p.value.length, 0);
  const tables = facts.tables.flatMap((g) => {
    const head = headerOf(g);
    if (!head) return [];
    for (const r of g.rows) for (const c of distinct(r)) covered += c.length;
    const rows = g.rows.slice(head.at + 1).filter((r) => r.some(Boolean) && !isSummaryRow(r)).length;
    return [{ head: head.names, rows, order: g.order, ...(head.caption ? { caption: head.caption } : {}) }];
  });
  return { lead, facts: chosen, tables, covered };
}

const describe = (head: readonly string[], rows: number, caption?: string) =>
  `Table${caption ? ` "${caption}"` : ''}: ${head.join(', ')} — ${rows} rows`;

/**
 * The digest as one summary within `budget` characters: the name whole (as the sentence summary
 * keeps its first sentence whole), then the best facts that still fit, then the data tables that
 * do, a table's column list shortened to what fits. Empty when there are no facts and no tables.
 */
export function summarizeRecord(digest: Digest, budget: number): string {
  const { lead, facts, tables } = digest;
  if (!facts.length && !tables.length) return '';
  let used = lead.length;
  const fits = (cost: number) => !used || used + cost <= budget;
  const picked = new Set<(typeof facts)[number]>();
  // Best first, each kind worth less for every fact of it already taken: an invoice's total, then its
  // date, before its subtotal.
  const taken = new Map<Kind, number>();
  for (;;) {
    let best: (typeof facts)[number] | undefined;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const f of facts) {
      if (picked.has(f) || !fits(f.text.length + 2)) continue;
      const score = f.score - (taken.get(f.kind) ?? 0);
      if (score > bestScore) {
        best = f;
        bestScore = score;
      }
    }
    if (!best) break;
    picked.add(best);
    taken.set(best.kind, (taken.get(best.kind) ?? 0) + 1);
    used += best.text.length + 2;
  }
  const shown: string[] = [];
  const heads = new Set<string>();
  for (const t of tables) {
    // Tables continued under the same header (one per page or per sheet) are named once.
    const key = t.head.join('\u0000');
    if (heads.has(key)) continue;
    heads.add(key);
    let head = [...t.head];
    let text = describe(head, t.rows, t.caption);
    while (!fits(text.length + 2) && head.length > 2) {
      head = head.slice(0, -1);
      text = describe([...head, '…'], t.rows, t.caption);
    }
    if (!fits(text.length + 2)) continue;
    shown.push(text);
    used += text.length + 2;
  }
  // Only names and words fitted beside the name (no amount, date, reference or table): the
  // sentence summary says as much.
  if (![...picked].some((f) => f.score >= 2) && !shown.length) return '';
  let out = lead;
  const factText = facts
    .filter((f) => picked.has(f))
    .map((f) => f.text)
    .join('; ');
  for (const part of [factText, ...shown]) {
    if (!part) continue;
    out = out ? `${out}${/[.!?:;]$/.test(out) ? ' ' : '. '}${part}` : part;
  }
  return out;
}
