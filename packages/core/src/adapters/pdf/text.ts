/** Character-level clean-up of pdf.js text runs. */

const ligatures: Record<string, string> = {
  '\ufb00': 'ff',
  '\ufb01': 'fi',
  '\ufb02': 'fl',
  '\ufb03': 'ffi',
  '\ufb04': 'ffl',
  '\ufb05': 'st',
  '\ufb06': 'st',
  '\u00ad': '',
  '\u200b': '',
  '\ufeff': '',
  // What table cells write for a hyphen left open (`OPEN_HYPHEN`): no text may carry it.
  '\ufdd0': '',
};

// One test per run keeps the common case (plain text) free of replace() work.
const odd = /[\ufb00-\ufb06\ufdd0\u00ad\u200b\ufeff\u00a0\u2000-\u200a\u202f\u205f\u0000-\u001f]/;
const oddAll = /[\ufb00-\ufb06\ufdd0\u00ad\u200b\ufeff\u00a0\u2000-\u200a\u202f\u205f\u0000-\u001f]/g;

/** Expands ligatures, drops soft hyphens and zero-width marks, turns odd spaces into plain ones. */
export function cleanText(s: string): string {
  if (odd.test(s)) s = s.replace(oddAll, (c) => ligatures[c] ?? ' ');
  // pdf.js reverses multi-letter ToUnicode entries of right-to-left glyphs. The lam-alef ligatures
  // then read alef-lam after an alef ("األ" for "الأ", "کاالی" for "کالای"); an alef followed by
  // another alef never occurs in Arabic or Persian spelling, so the swap is safe.
  if (s.includes('\u0627')) {
    if (lamHamza.test(s)) s = s.replace(lamHamzaAll, '\u0627\u0644$1');
    if (s.includes('\u0627\u0627\u0644')) s = s.replaceAll('\u0627\u0627\u0644', '\u0627\u0644\u0627');
  }
  return s;
}

const lamHamza = /\u0627([\u0622\u0623\u0625])\u0644/;
const lamHamzaAll = /\u0627([\u0622\u0623\u0625])\u0644/g;

const cjk = /[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]/;
/** Whether two runs meet without a space between them in the script they are written in. */
export const isCjk = (ch: string): boolean => cjk.test(ch);

/**
 * Whether a wrapped line runs on into the next with no blank at the join: after a slash ("and/"
 * "or", a path or address broken after one) and between CJK characters. `end` is the text before
 * the join (its last characters suffice), `next` the line after it.
 */
export const runsOnAt = (end: string, next: string): boolean =>
  end.endsWith('/') || (isCjk(end.slice(-1)) && isCjk(next.charAt(0)));

/** A line ending in an e-mail or web address cut after a dot of its domain ("ann.lee@lab.", "www.example."). */
const ADDRESS_CUT = /^(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)*|(?:https?:\/\/|www\.)[\w-]+(?:\.[\w-]+)*)\.$/;
/** The rest of a domain opening a line, a path or a sentence's stop after it; labels of two characters or more. */
const DOMAIN_REST = /^([a-z0-9][a-z0-9-]+(?:\.[a-z0-9-]{2,})*)(?:[/:?#]\S*)?[.,;:)\]]?(?:\s|$)/;
/** Top-level domains that may stand alone on the next line ("www.example." over "com"). */
const TOP_LEVEL =
  /^(?:com|org|net|edu|gov|mil|int|info|biz|io|ai|co|uk|de|fr|eu|us|ca|au|jp|cn|in|nl|se|no|es|it|ch|at|be|dk|fi|ie|nz|za|ru|br|pl)$/;

/**
 * Whether a wrapped line (`line`, its whole text) ends in an address cut after a dot of its
 * domain, and the next line (`next`) opens with the rest of it: the two run on with no blank
 * ("ann.lee@lab." over "example.org" is "ann.lee@lab.example.org"). A sentence's stop after a
 * whole address, over a word that is no domain ("then"), keeps its blank.
 */
export function addressRunsOn(line: string, next: string): boolean {
  if (!line.endsWith('.') || !ADDRESS_CUT.test(line.slice(line.lastIndexOf(' ') + 1))) return false;
  const rest = DOMAIN_REST.exec(next)?.[1];
  return rest !== undefined && (rest.includes('.') || TOP_LEVEL.test(rest));
}

/** Text outside ASCII: where patterns need their Unicode classes (ASCII-only text has faster ones). */
export const nonAscii = /[^\x00-\x7f]/;

const glyphRe = /\P{M}\p{M}*|\p{M}+/gu;

/** Reverses glyph order, keeping each combining mark after its base letter. */
export function reverseGlyphs(s: string): string {
  const glyphs = s.match(glyphRe);
  return glyphs ? glyphs.reverse().join('') : s;
}
