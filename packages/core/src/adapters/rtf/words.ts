/** The control words the reader gives meaning to by table, and field instructions. */

/** Destinations whose content is never document text. */
export const SKIPPED = new Set([
  'colortbl',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'annotation',
  'atnid',
  'atnauthor',
  'atnref',
  'atndate',
  'atrfstart',
  'atrfend',
  'bkmkstart',
  'bkmkend',
  'nonshppict',
  'nonesttables',
  'objdata',
  'objclass',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'xmlnstbl',
  'rsidtbl',
  'generator',
  'filetbl',
  'revtbl',
  'pgdsctbl',
  'xe',
  'tc',
  'txe',
  'template',
  'docvar',
  'userprops',
  'mmathPr',
  'fchars',
  'lchars',
  'pnseclvl',
  'pntxta',
  'pntxtb',
  'leveltext',
  'levelnumbers',
  'listpicture',
  'blipuid',
  'passwordhash',
  'wgrffmtfilter',
  'ftnsep',
  'ftnsepc',
  'aftnsep',
  'aftnsepc',
  'ftncn',
  'aftncn',
  'defchp',
  'defpap',
]);

export const STRUCTURE = new Set(['par', 'sect', 'line', 'cell', 'nestcell', 'row', 'nestrow', 'trowd', 'cellx']);

export const TABLE_MARKS = new Set(['row', 'nestrow', 'trowd', 'cellx', 'clmgf', 'clmrg', 'clvmgf', 'clvmrg']);

export const INFO_KEYS: Record<string, string> = {
  title: 'title',
  subject: 'subject',
  author: 'author',
  keywords: 'keywords',
  doccomm: 'description',
  company: 'company',
};

/** Characters some control words stand for. */
export const SPECIAL: Record<string, string> = {
  tab: '\t',
  emdash: '\u2014',
  endash: '\u2013',
  emspace: '\u2003',
  enspace: '\u2002',
  qmspace: '\u2005',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201c',
  rdblquote: '\u201d',
  zwj: '\u200d',
  zwnj: '\u200c',
  ltrmark: '',
  rtlmark: '',
};

export const PICT_MIME: Record<string, string> = {
  pngblip: 'image/png',
  jpegblip: 'image/jpeg',
  emfblip: 'image/emf',
  wmetafile: 'image/wmf',
  macpict: 'image/pict',
  dibitmap: 'image/bmp',
  wbitmap: 'image/bmp',
};

/** `HYPERLINK "url"` (with `\l "anchor"` for in-document targets) → href. */
export function hyperlinkOf(instr: string): string | undefined {
  const m = /^\s*HYPERLINK\b(.*)$/is.exec(instr);
  if (!m) return undefined;
  const rest = m[1] ?? '';
  const anchor = /\\l\s+"([^"]*)"/.exec(rest);
  const quoted = /(?:^|\s)"([^"]*)"/.exec(rest.replace(/\\[lmnot]\s+"[^"]*"/g, ''));
  const bare = /^\s*([^\s"\\]+)/.exec(rest);
  const url = (quoted?.[1] ?? bare?.[1] ?? '').trim();
  if (anchor?.[1]) return `${url}#${anchor[1]}`;
  return url || undefined;
}
