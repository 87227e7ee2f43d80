/**
 * Which language model a scan needs. Scripts come from tesseract's OSD pass; Latin-script languages
 * all share a script, so for them the words read are compared with each language's commonest words.
 */

/** The language packs that read an OSD script (tesseract's script names), the likeliest first. */
export const SCRIPT_LANGUAGES: Readonly<Record<string, readonly string[]>> = {
  Han: ['chi_sim', 'chi_tra'],
  Japanese: ['jpn'],
  Katakana: ['jpn'],
  Hiragana: ['jpn'],
  Hangul: ['kor'],
  Cyrillic: ['rus', 'ukr', 'bul', 'srp', 'bel', 'mkd'],
  Arabic: ['ara', 'fas', 'urd'],
  Greek: ['ell'],
  Hebrew: ['heb'],
  Devanagari: ['hin', 'mar', 'nep'],
  Bengali: ['ben'],
  Tamil: ['tam'],
  Thai: ['tha'],
  Armenian: ['hye'],
  Georgian: ['kat'],
};

const NAMES: Readonly<Record<string, string>> = {
  eng: 'English',
  fra: 'French',
  deu: 'German',
  spa: 'Spanish',
  ita: 'Italian',
  por: 'Portuguese',
  nld: 'Dutch',
};

/** Short, frequent words that tell Latin-script languages apart (none shared between two lists). */
const COMMON: Readonly<Record<string, readonly string[]>> = {
  eng: ['the', 'and', 'of', 'to', 'is', 'that', 'with', 'for', 'this', 'are', 'was', 'have', 'from', 'which', 'by'],
  fra: ['le', 'les', 'des', 'et', 'est', 'une', 'dans', 'pour', 'qui', 'pas', 'sur', 'au', 'avec', 'du', 'nous', 'ont'],
  deu: [
    'der',
    'die',
    'und',
    'das',
    'ist',
    'nicht',
    'mit',
    'den',
    'ein',
    'eine',
    'auf',
    'sich',
    'dem',
    'zu',
    'wir',
    'für',
  ],
  spa: ['el', 'los', 'las', 'y', 'es', 'del', 'una', 'por', 'con', 'para', 'como', 'pero', 'sus', 'fue', 'muy'],
  ita: ['il', 'gli', 'della', 'di', 'che', 'è', 'nel', 'per', 'sono', 'non', 'questo', 'anche', 'alla', 'delle'],
  por: ['os', 'da', 'do', 'não', 'em', 'uma', 'são', 'com', 'das', 'dos', 'pelo', 'mais', 'foi'],
  nld: ['het', 'een', 'van', 'en', 'niet', 'zijn', 'op', 'voor', 'met', 'dat', 'ook', 'wordt', 'naar', 'bij'],
};

/** Fewest words read before the text is judged; a caption or a stamp says nothing. */
const MIN_WORDS = 40;

/**
 * The Latin-script language the words most look like, when clearly so: its common words at least
 * 8% of all words and three times those of the runner-up.
 */
export function guessLatinLanguage(words: readonly string[]): string | undefined {
  if (words.length < MIN_WORDS) return undefined;
  const counts = new Map<string, number>();
  const sets = Object.entries(COMMON).map(([lang, list]) => [lang, new Set(list)] as const);
  for (const raw of words) {
    const w = raw.toLowerCase().replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
    for (const [lang, set] of sets) if (set.has(w)) counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const [first, second] = ranked;
  if (!first || first[1] < words.length * 0.08 || (second && first[1] < second[1] * 3)) return undefined;
  return first[0];
}

export const languageName = (code: string): string => NAMES[code] ?? code;

/** How to get a language model: its npm package, and the option and CLI flag that use it. */
export const packHint = (code: string): string =>
  `install @tesseract.js-data/${code} and pass ocr.languages ["${code}"] (CLI: --ocr-lang ${code})`;

/** How to get a model for a script: its packages (the likeliest named first). */
export const scriptHint = (codes: readonly string[]): string =>
  `install ${codes.map((c) => `@tesseract.js-data/${c}`).join(' or ')} (read without ocr.languages, or pass ocr.languages ["${codes[0]}"])`;
