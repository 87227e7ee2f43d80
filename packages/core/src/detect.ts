import { openCfb } from './adapters/cfb/index.ts';
import { isWordMl2003 } from './adapters/docx/wordml-sniff.ts';
import { foreignType } from './detect-foreign.ts';
import { looksLikeMail, looksLikeMbox, MAX_JSON_SNIFF, sniffTextKind } from './detect-text.ts';
import { DocmillError } from './errors.ts';
import { sniffUtf16 } from './util/utf16.ts';
import { listZipEntries, type ZipEntryInfo, type ZipListing } from './util/zip-directory.ts';
import { cutEntry, recoverZip } from './util/zip-recover.ts';

/** Every file kind the engine recognises. Image kinds are accepted only through the `image` parser. */
export type FileKind =
  | 'pdf'
  | 'docx'
  | 'docm'
  | 'doc'
  /** Word 2003 XML (`<w:wordDocument>`), found by content whatever the extension. */
  | 'wordml'
  | 'odt'
  | 'rtf'
  | 'xlsx'
  | 'xlsm'
  | 'xlsb'
  | 'xls'
  | 'ods'
  | 'pptx'
  | 'pptm'
  | 'ppt'
  | 'odp'
  | 'epub'
  | 'csv'
  | 'html'
  | 'image'
  // Extensions beyond the hosted contract's list (README "Formats"): what a folder of mail,
  // archives and notes holds.
  | 'text'
  | 'markdown'
  | 'json'
  | 'xml'
  | 'ipynb'
  | 'eml'
  | 'mbox'
  | 'msg'
  | 'zip'
  /** `.tar`, and gzip (`.tar.gz`, `.tgz`, or one gzipped document). */
  | 'tar';

/** The 20 upload extensions of the contract (2.1), in its order. */
export const CONTRACT_EXTENSIONS = [
  '.html',
  '.htm',
  '.xhtml',
  '.pdf',
  '.docx',
  '.doc',
  '.docm',
  '.odt',
  '.ods',
  '.odp',
  '.rtf',
  '.xlsx',
  '.xls',
  '.xlsm',
  '.xlsb',
  '.pptx',
  '.ppt',
  '.pptm',
  '.epub',
  '.csv',
] as const;

/**
 * Extensions docmill reads beyond the contract's: plain text, Markdown, JSON, XML feeds, notebooks,
 * mail and archives. The server and the CLI accept them like the contract's own.
 */
export const DOCMILL_EXTENSIONS = [
  '.txt',
  '.text',
  '.log',
  '.md',
  '.markdown',
  '.json',
  '.jsonl',
  '.ndjson',
  '.xml',
  '.rss',
  '.atom',
  '.ipynb',
  '.eml',
  '.msg',
  '.mbox',
  '.zip',
  '.tar',
  '.tgz',
  '.gz',
] as const;

/** Every upload extension accepted: the contract's, then docmill's extensions. */
export const ACCEPTED_EXTENSIONS = [...CONTRACT_EXTENSIONS, ...DOCMILL_EXTENSIONS] as const;

/** Raster image extensions, accepted only with the `image` parser. */
export const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.tif', '.tiff', '.gif', '.bmp', '.webp'];

const byExtension: Record<string, FileKind> = {
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.doc': 'doc',
  '.docm': 'docm',
  '.odt': 'odt',
  '.ods': 'ods',
  '.odp': 'odp',
  '.rtf': 'rtf',
  '.xlsx': 'xlsx',
  '.xls': 'xls',
  '.xlsm': 'xlsm',
  '.xlsb': 'xlsb',
  '.pptx': 'pptx',
  '.ppt': 'ppt',
  '.pptm': 'pptm',
  '.epub': 'epub',
  '.csv': 'csv',
  '.txt': 'text',
  '.text': 'text',
  '.log': 'text',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.json': 'json',
  '.jsonl': 'json',
  '.ndjson': 'json',
  '.xml': 'xml',
  '.rss': 'xml',
  '.atom': 'xml',
  '.ipynb': 'ipynb',
  '.eml': 'eml',
  '.msg': 'msg',
  '.mbox': 'mbox',
  '.zip': 'zip',
  '.tar': 'tar',
  '.tgz': 'tar',
  '.gz': 'tar',
};

const byMime: Record<string, FileKind> = {
  'application/pdf': 'pdf',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'application/rtf': 'rtf',
  'text/rtf': 'rtf',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-word.document.macroenabled.12': 'docm',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-excel.sheet.macroenabled.12': 'xlsm',
  'application/vnd.ms-excel.sheet.binary.macroenabled.12': 'xlsb',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.ms-powerpoint.presentation.macroenabled.12': 'pptm',
  'application/epub+zip': 'epub',
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'application/json': 'json',
  'application/x-ndjson': 'json',
  'application/jsonl': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/rss+xml': 'xml',
  'application/atom+xml': 'xml',
  'application/x-ipynb+json': 'ipynb',
  'message/rfc822': 'eml',
  'application/mbox': 'mbox',
  'application/vnd.ms-outlook': 'msg',
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
  'application/x-tar': 'tar',
  'application/gzip': 'tar',
  'application/x-gzip': 'tar',
};

export const MIME_TYPES: Record<FileKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  docm: 'application/vnd.ms-word.document.macroEnabled.12',
  doc: 'application/msword',
  wordml: 'application/msword',
  odt: 'application/vnd.oasis.opendocument.text',
  rtf: 'application/rtf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xlsm: 'application/vnd.ms-excel.sheet.macroEnabled.12',
  xlsb: 'application/vnd.ms-excel.sheet.binary.macroEnabled.12',
  xls: 'application/vnd.ms-excel',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  pptm: 'application/vnd.ms-powerpoint.presentation.macroEnabled.12',
  ppt: 'application/vnd.ms-powerpoint',
  odp: 'application/vnd.oasis.opendocument.presentation',
  epub: 'application/epub+zip',
  csv: 'text/csv',
  html: 'text/html',
  image: 'image/*',
  text: 'text/plain',
  markdown: 'text/markdown',
  json: 'application/json',
  xml: 'application/xml',
  ipynb: 'application/x-ipynb+json',
  eml: 'message/rfc822',
  mbox: 'application/mbox',
  msg: 'application/vnd.ms-outlook',
  zip: 'application/zip',
  tar: 'application/x-tar',
};

export interface DetectHints {
  filename?: string | undefined;
  contentType?: string | undefined;
  /** Whether raster images are accepted (the `image` parser). */
  acceptImages?: boolean | undefined;
}

export interface Detected {
  kind: FileKind;
  /** How the kind was decided; useful in warnings for mislabelled files. */
  by: 'magic' | 'extension' | 'contentType' | 'sniff';
  /** Image MIME when kind is 'image'. */
  imageMime?: string;
  /** A zip's central directory, read while detecting, for the zip reader (see `openZip`). */
  zipListing?: ZipListing;
}

export function extensionOf(filename: string | undefined): string {
  if (!filename) return '';
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);

function imageMagic(b: Uint8Array): string | undefined {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47])) return 'image/png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(b, [0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (startsWith(b, [0x42, 0x4d]) && b.length > 26) return 'image/bmp';
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}

/** `image/png` → `a PNG image` */
const imageName = (mime: string) => `a ${mime.slice('image/'.length).toUpperCase()} image`;

/** True when a CFB directory names `stream` (names are stored as UTF-16LE). */
export function cfbHasStream(b: Uint8Array, stream: string): boolean {
  const needle = new Uint8Array(stream.length * 2);
  for (let i = 0; i < stream.length; i++) needle[i * 2] = stream.charCodeAt(i);
  outer: for (let i = 0; i + needle.length <= b.length; i++) {
    for (let j = 0; j < needle.length; j++) if (b[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

function zipKind(b: Uint8Array, listed: readonly ZipEntryInfo[] | null): FileKind | 'encrypted' | undefined {
  // A zip cut short has no directory; its complete entries, and the one it was cut inside, still
  // name the format.
  const recovered = () => {
    const rebuilt = recoverZip(b, 64);
    const whole = (rebuilt && listZipEntries(rebuilt.bytes)) ?? [];
    const cut = cutEntry(b, 64);
    const names: { name: string }[] = cut ? [...whole, { name: cut.name }] : whole;
    return names.length ? names : undefined;
  };
  const entries = listed ?? recovered();
  if (!entries) return undefined;
  // One pass over the names: the sets and prefixes below are all that is asked of them.
  const names = new Set<string>();
  let word = false;
  let xl = false;
  let ppt = false;
  let macro = false;
  for (const { name } of entries) {
    names.add(name);
    if (name.startsWith('word/')) {
      word = true;
      macro ||= name.startsWith('word/vbaProject');
    } else if (name.startsWith('xl/')) {
      xl = true;
      macro ||= name.startsWith('xl/vbaProject');
    } else if (name.startsWith('ppt/')) {
      ppt = true;
      macro ||= name.startsWith('ppt/vbaProject');
    }
  }
  if (names.has('mimetype')) {
    // ODF and EPUB store their media type uncompressed as the first entry.
    const head = new TextDecoder().decode(b.subarray(30, Math.min(b.length, 200)));
    if (head.includes('application/epub+zip')) return 'epub';
    if (head.includes('opendocument.text')) return 'odt';
    if (head.includes('opendocument.spreadsheet')) return 'ods';
    if (head.includes('opendocument.presentation')) return 'odp';
  }
  if (names.has('META-INF/container.xml')) return 'epub';
  if (word) return macro ? 'docm' : 'docx';
  if (names.has('xl/workbook.bin')) return 'xlsb';
  if (xl) return macro ? 'xlsm' : 'xlsx';
  if (ppt) return macro ? 'pptm' : 'pptx';
  return undefined;
}

/**
 * Names of the streams directly under the root storage. Embedded objects live in sub-storages (a
 * workbook's embedded Word document under `MBD…`), so only the root says what the file is. A
 * directory too damaged to walk falls back to finding the names anywhere in the file.
 */
function cfbRootHas(b: Uint8Array): (stream: string) => boolean {
  try {
    const root = openCfb(b);
    return (stream) => root.has(stream);
  } catch {
    return (stream) => cfbHasStream(b, stream);
  }
}

function cfbKind(b: Uint8Array): FileKind | 'encrypted' | undefined {
  const has = cfbRootHas(b);
  // Encrypted OOXML is a CFB holding EncryptionInfo + EncryptedPackage.
  if (has('EncryptedPackage') || has('EncryptionInfo')) return 'encrypted';
  if (has('Workbook') || has('Book')) return 'xls';
  if (has('WordDocument')) return 'doc';
  if (has('PowerPoint Document')) return 'ppt';
  // An Outlook item: MAPI properties at the root.
  if (has('__properties_version1.0') || has('__nameid_version1.0')) return 'msg';
  return undefined;
}

/** A tar header block: "ustar" at 257, or a v7 header whose checksum adds up. */
function isTar(b: Uint8Array): boolean {
  if (b.length < 512) return false;
  if (startsWith(b, [0x75, 0x73, 0x74, 0x61, 0x72], 257)) return true;
  const field = new TextDecoder('latin1')
    .decode(b.subarray(148, 156))
    .replace(/[\0 ]+$/, '')
    .trim();
  if (!/^[0-7]{1,7}$/.test(field) || b[0] === 0) return false;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : (b[i] as number);
  return sum === Number.parseInt(field, 8);
}

/** Kinds whose content proves itself beat a text label (a `.txt` holding an e-mail is an e-mail). */
const PLAIN_LABELS: ReadonlySet<FileKind | undefined> = new Set<FileKind | undefined>([undefined, 'text']);
/** Text kinds of the extension list (the contract's are sniffed before). */
const TEXT_KINDS: ReadonlySet<FileKind> = new Set<FileKind>([
  'text',
  'markdown',
  'json',
  'xml',
  'ipynb',
  'eml',
  'mbox',
]);

/**
 * Text files of docmill's extension types. Content first where it proves a kind (mail headers, a
 * notebook, a feed, JSON) unless the label names another text kind (Markdown stays Markdown), then
 * the extension, then the content type. An unknown extension stays unsupported.
 */
function textKind(
  bytes: Uint8Array,
  head: string,
  ext: string,
  extKind: FileKind | undefined,
  mimeKind: FileKind | undefined,
): Detected | undefined {
  if (ext && !extKind) return undefined;
  const label = extKind ?? mimeKind;
  const tail = () => textHead(bytes.subarray(Math.max(0, bytes.length - 2048)));
  const sniffed = sniffTextKind(head, tail(), () => ({
    text: textHead(bytes, MAX_JSON_SNIFF),
    complete: bytes.length <= MAX_JSON_SNIFF,
  }));
  // A binary format's label on text is wrong (its signature was looked for above).
  const overrides = PLAIN_LABELS.has(label) || !TEXT_KINDS.has(label as FileKind);
  if (sniffed && (overrides || sniffed === label || (label === 'json' && sniffed === 'ipynb')))
    return { kind: sniffed, by: 'sniff' };
  if (label && !TEXT_KINDS.has(label)) return undefined;
  if (extKind) return { kind: extKind, by: 'extension' };
  if (mimeKind) return { kind: mimeKind, by: 'contentType' };
  return undefined;
}

/** Decodes the head of a text file well enough to sniff markup. */
function textHead(b: Uint8Array, length = 2048): string {
  const head = b.subarray(0, length);
  if (startsWith(head, [0xff, 0xfe])) return new TextDecoder('utf-16le').decode(head);
  if (startsWith(head, [0xfe, 0xff])) return new TextDecoder('utf-16be').decode(head);
  const wide = sniffUtf16(head);
  return new TextDecoder(wide ?? 'latin1').decode(head);
}

function looksLikeHtml(head: string): boolean {
  const h = head
    .replace(/^\uFEFF/, '')
    .replace(/^(\s|<\?xml[^>]*>|<!--[\s\S]*?-->)*/i, '')
    .slice(0, 1024)
    .toLowerCase();
  return /^<(!doctype html|html|head|body|meta|title)\b/.test(h) || /<html[\s>]/.test(h);
}

function isBinary(b: Uint8Array): boolean {
  const n = Math.min(b.length, 4096);
  if (startsWith(b, [0xff, 0xfe]) || startsWith(b, [0xfe, 0xff]) || sniffUtf16(b)) return false;
  let ctrl = 0;
  for (let i = 0; i < n; i++) {
    const c = b[i] as number;
    if (c === 0) return true;
    if (c < 8 || (c > 13 && c < 32 && c !== 27)) ctrl++;
  }
  return ctrl > n * 0.05;
}

const unsupportedType = (looksLike?: string) =>
  new DocmillError(
    400,
    'UNSUPPORTED_FILE_TYPE',
    `Unsupported upload type${looksLike ? ` (it looks like ${looksLike})` : ''}. ` +
      `Supported file extensions: ${ACCEPTED_EXTENSIONS.join(', ')}.`,
  );

const kindNames: Record<FileKind, string> = {
  pdf: 'a PDF',
  docx: 'a Word document',
  docm: 'a Word document',
  doc: 'a Word document',
  wordml: 'a Word document',
  odt: 'an OpenDocument text',
  rtf: 'an RTF document',
  xlsx: 'an Excel workbook',
  xlsm: 'an Excel workbook',
  xlsb: 'an Excel workbook',
  xls: 'an Excel workbook',
  ods: 'an OpenDocument spreadsheet',
  pptx: 'a PowerPoint presentation',
  pptm: 'a PowerPoint presentation',
  ppt: 'a PowerPoint presentation',
  odp: 'an OpenDocument presentation',
  epub: 'an EPUB book',
  csv: 'a CSV file',
  html: 'a web page',
  image: 'an image',
  text: 'a text file',
  markdown: 'a Markdown file',
  json: 'a JSON file',
  xml: 'an XML file',
  ipynb: 'a Jupyter notebook',
  eml: 'an e-mail message',
  mbox: 'a mailbox',
  msg: 'an Outlook message',
  zip: 'a zip archive',
  tar: 'a tar or gzip archive',
};

/** A file whose name says one format while its bytes are plainly another kind of file. */
const mislabelled = (ext: string, kind: FileKind, looksLike: string) =>
  new DocmillError(
    400,
    'UNSUPPORTED_FILE_TYPE',
    `This ${ext} file is not ${kindNames[kind]}: it looks like ${looksLike}. Supported file extensions: ${ACCEPTED_EXTENSIONS.join(', ')}.`,
  );

/** One decoder for every call: making one costs more than decoding a file's head with it. */
const LATIN1 = new TextDecoder('latin1');

/** Where the ASCII text `needle` first occurs in the bytes, -1 when nowhere (no decoding). */
function findAscii(bytes: Uint8Array, needle: string): number {
  const first = needle.charCodeAt(0);
  search: for (
    let i = bytes.indexOf(first);
    i >= 0 && i + needle.length <= bytes.length;
    i = bytes.indexOf(first, i + 1)
  ) {
    for (let k = 1; k < needle.length; k++) if (bytes[i + k] !== needle.charCodeAt(k)) continue search;
    return i;
  }
  return -1;
}

/**
 * Decides what a file is: magic bytes first, the extension second, the content type third.
 * A mislabelled file is parsed as what it is.
 */
export function detect(bytes: Uint8Array, hints: DetectHints = {}): Detected {
  const ext = extensionOf(hints.filename);
  const extKind = byExtension[ext];
  const mime = hints.contentType?.split(';')[0]?.trim().toLowerCase();
  const mimeKind = mime ? byMime[mime] : undefined;

  // Magic bytes. %PDF may be preceded by junk in the first KiB.
  if (findAscii(bytes.subarray(0, 1024), '%PDF-') >= 0) return { kind: 'pdf', by: 'magic' };
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    const entries = listZipEntries(bytes);
    const zip = entries ? { zipListing: { bytes, entries } } : {};
    const k = zipKind(bytes, entries);
    if (k === 'encrypted') throw encrypted();
    if (k) return { kind: k, by: 'magic', ...zip };
    // A zip we cannot classify: trust a zip-family extension (the adapter will report damage).
    const zipFamily: FileKind[] = ['docx', 'docm', 'xlsx', 'xlsm', 'xlsb', 'pptx', 'pptm', 'odt', 'ods', 'odp', 'epub'];
    if (extKind && zipFamily.includes(extKind)) return { kind: extKind, by: 'extension', ...zip };
    if (mimeKind && zipFamily.includes(mimeKind)) return { kind: mimeKind, by: 'contentType', ...zip };
    // Any other zip is an archive of documents, whatever its name says (as any mislabelled file).
    return { kind: 'zip', by: 'magic', ...zip };
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    const k = cfbKind(bytes);
    if (k === 'encrypted') throw encrypted();
    if (k) return { kind: k, by: 'magic' };
    if (extKind === 'doc' || extKind === 'xls' || extKind === 'ppt' || extKind === 'msg')
      return { kind: extKind, by: 'extension' };
    const cfb = 'a Microsoft compound file that is no Word, Excel, PowerPoint or Outlook document (an installer, …)';
    throw extKind ? mislabelled(ext, extKind, cfb) : unsupportedType(cfb);
  }
  if (startsWith(bytes, [0x1f, 0x8b, 0x08]) || isTar(bytes)) return { kind: 'tar', by: 'magic' };
  if (
    LATIN1.decode(bytes.subarray(0, 16))
      .replace(/^\uFEFF|^ï»¿/, '')
      .startsWith('{\\rtf')
  )
    return { kind: 'rtf', by: 'magic' };
  const img = imageMagic(bytes);
  if (img) {
    if (hints.acceptImages) return { kind: 'image', by: 'magic', imageMime: img };
    if (extKind) throw mislabelled(ext, extKind, `${imageName(img)} (images are read only with the image parser)`);
    throw unsupportedType();
  }
  const binary = isBinary(bytes);
  const foreign = foreignType(bytes, binary);
  if (foreign) throw extKind ? mislabelled(ext, extKind, foreign) : unsupportedType(foreign);

  // Text formats: sniff HTML, otherwise go by the label.
  if (!binary) {
    const head = textHead(bytes);
    if (isWordMl2003(head)) return { kind: 'wordml', by: 'magic' };
    // Mail headers first: a message's HTML body would otherwise pass for a web page. A file labelled
    // as a web page or CSV keeps its label, as before.
    if (extKind !== 'html' && extKind !== 'csv') {
      const mail = looksLikeMbox(head) ? 'mbox' : looksLikeMail(head) ? 'eml' : undefined;
      if (mail && (!extKind || !TEXT_KINDS.has(extKind) || extKind === 'text' || extKind === mail))
        return { kind: mail, by: 'sniff' };
    }
    if (looksLikeHtml(head)) return { kind: 'html', by: extKind === 'html' ? 'extension' : 'sniff' };
    if (extKind === 'html' || extKind === 'csv') return { kind: extKind, by: 'extension' };
    if (!extKind && (mimeKind === 'html' || mimeKind === 'csv')) return { kind: mimeKind, by: 'contentType' };
    const text = textKind(bytes, head, ext, extKind, mimeKind);
    if (text) return text;
    if (!extKind && !mimeKind && /<\/?(p|div|table|span|a|h[1-6])\b/i.test(head)) return { kind: 'html', by: 'sniff' };
    if (!ext && !mimeKind) return { kind: 'csv', by: 'sniff' };
  }
  if (ext && IMAGE_EXTENSIONS.includes(ext) && hints.acceptImages) {
    throw new DocmillError(400, 'BAD_REQUEST', 'The file has an image extension but is not a readable image.');
  }
  if (extKind) {
    // Labelled as a binary format but nothing matched its signature: the adapter reports the damage.
    if (extKind !== 'html' && extKind !== 'csv') return { kind: extKind, by: 'extension' };
  }
  throw unsupportedType();
}

export function encrypted(): DocmillError {
  return new DocmillError(
    400,
    'BAD_REQUEST',
    'The document is password-protected or encrypted, and its encryption container could not be read (damaged or of an unknown kind).',
  );
}
