/**
 * Markdown escaping as data. Each rule names where it applies; `escapeText` applies the rules in
 * scope. Handlers never escape by themselves.
 *
 * - `inline`: anywhere in running text.
 * - `lineStart`: only where a line of the rendered block begins (block constructs live there).
 * - `cell`: additionally inside GFM table cells.
 */
interface Rule {
  scope: 'inline' | 'lineStart' | 'cell';
  pattern: RegExp;
  replace: string | ((m: string, ...groups: string[]) => string);
  why: string;
}

export const escapeRules: readonly Rule[] = [
  {
    scope: 'inline',
    pattern: /\\(?=[!-/:-@[-`{-~])/g,
    replace: '\\\\',
    why: 'a backslash before punctuation would escape it',
  },
  { scope: 'inline', pattern: /[*`]/g, replace: (m) => `\\${m}`, why: 'emphasis and code spans' },
  {
    scope: 'inline',
    // Each underscore on its own (lookarounds consume nothing): in a run like a form's "____" every
    // one is escaped, since an unescaped one between escaped ones can still open or close emphasis.
    pattern: /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu,
    replace: '\\_',
    why: 'underscore emphasis (intraword _ is literal in GFM)',
  },
  { scope: 'inline', pattern: /\[/g, replace: '\\[', why: 'links, images, footnote references' },
  { scope: 'inline', pattern: /<(?=[A-Za-z/!?])/g, replace: '\\<', why: 'raw HTML and autolinks' },
  { scope: 'inline', pattern: /&(?=#?[A-Za-z0-9]+;)/g, replace: '&amp;', why: 'character references' },
  { scope: 'inline', pattern: /~~/g, replace: '\\~\\~', why: 'GFM strikethrough' },
  {
    scope: 'lineStart',
    pattern: /^(\s{0,3})(#{1,6})(?=\s|$)/,
    replace: (_m, sp, h) => `${sp}\\${h}`,
    why: 'ATX heading',
  },
  { scope: 'lineStart', pattern: /^(\s{0,3})>/, replace: (_m, sp) => `${sp}\\>`, why: 'block quote' },
  {
    scope: 'lineStart',
    pattern: /^(\s{0,3})([-+])(?=\s)/,
    replace: (_m, sp, c) => `${sp}\\${c}`,
    why: 'bullet list item',
  },
  {
    scope: 'lineStart',
    pattern: /^(\s{0,3}\d{1,9})([.)])(?=\s|$)/,
    replace: (_m, n, p) => `${n}\\${p}`,
    why: 'ordered list item',
  },
  {
    scope: 'lineStart',
    pattern: /^(\s{0,3})(=+|-{3,}|_{3,})\s*$/,
    replace: (_m, sp, r) => `${sp}\\${r}`,
    why: 'setext underline or thematic break',
  },
  { scope: 'lineStart', pattern: /^(\s{0,3})(~~~|```)/, replace: (_m, sp, f) => `${sp}\\${f}`, why: 'code fence' },
  { scope: 'lineStart', pattern: /^ {4,}/, replace: '', why: 'indented code block' },
  { scope: 'cell', pattern: /\|/g, replace: '\\|', why: 'column separator' },
];

const inlineRules = escapeRules.filter((r) => r.scope === 'inline');
const lineRules = escapeRules.filter((r) => r.scope === 'lineStart');
const cellRules = escapeRules.filter((r) => r.scope === 'cell');

/**
 * A loop, not reduce with an inline callback: that callback is a new function on every call,
 * compiled again once earlier calls' copies are collected.
 */
function apply(s: string, rules: readonly Rule[]): string {
  let out = s;
  for (const r of rules) out = out.replace(r.pattern, r.replace as (m: string, ...g: string[]) => string);
  return out;
}

// Most text has nothing to escape; one test per string skips the rule chain (large tables render
// millions of cells). Each trigger must cover every pattern of its scope.
const inlineTrigger = /[\\*`_[<&~]/;
const lineTrigger = /^\s{0,3}[#>+\-\d=_~`]|^ {4}/m;

/** Escapes running text (applies `inline` rules). */
export const escapeText = (s: string): string => (inlineTrigger.test(s) ? apply(s, inlineRules) : s);

/** Escapes constructs that only matter at the start of a line, for every line of a block. */
export const escapeLineStarts = (s: string): string => (lineTrigger.test(s) ? escapeLines(s) : s);

/**
 * Rewrites split's array in place rather than mapping it: map's result is packed from the builtin
 * but holey once the caller is optimized, and `join` would meet both kinds of array.
 */
function escapeLines(s: string): string {
  const lines = s.split('\n');
  for (let i = 0; i < lines.length; i++) lines[i] = apply(lines[i] as string, lineRules);
  return lines.join('\n');
}

/** Escapes what would break a GFM table cell. */
export const escapeCell = (s: string): string => (s.includes('|') ? apply(s, cellRules) : s);
