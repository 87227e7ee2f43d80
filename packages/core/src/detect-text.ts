import type { FileKind } from './detect.ts';

/**
 * What a text file is by its content, for the text formats whose bytes say so: mail (RFC 5322
 * headers, an mbox "From " line), notebooks, feeds and XML, JSON. Plain text and Markdown have no
 * signature and go by their label.
 */

/** Header names that open a message; a file starting with two of them is mail. */
const MAIL_HEADERS =
  /^(from|to|cc|subject|date|message-id|mime-version|received|return-path|content-type|delivered-to|reply-to|x-[\w-]+|dkim-signature|arc-[\w-]+|authentication-results|in-reply-to|references|sender|thread-topic|thread-index)$/i;

/** A header block at the start: `Name: value` lines (folded continuations allowed) up to a blank line. */
export function looksLikeMail(head: string): boolean {
  const lines = head.replace(/^\uFEFF/, '').split(/\r?\n/, 40);
  let known = 0;
  let first = true;
  for (const line of lines) {
    if (line === '') return known >= 2;
    if (!first && /^[ \t]/.test(line)) continue;
    const m = /^([!-9;-~]+):/.exec(line);
    if (!m) return false;
    if (MAIL_HEADERS.test(m[1] as string)) known++;
    first = false;
  }
  return known >= 3;
}

/** An mbox file: a `From sender date` separator line, then a message's headers. */
export function looksLikeMbox(head: string): boolean {
  const m = /^From \S*.*\r?\n/.exec(head.replace(/^\uFEFF/, ''));
  return Boolean(m && looksLikeMail(head.slice(m[0].length + (head.startsWith('\uFEFF') ? 1 : 0))));
}

/** A Jupyter notebook: a JSON object with `cells`, `nbformat` anywhere (writers put it last). */
export function looksLikeNotebook(head: string, tail: string): boolean {
  return /^\s*\{/.test(head) && /"cells"\s*:/.test(head) && /"nbformat"\s*:/.test(head + tail);
}

/** An XML document (declaration, or a feed's root) that is not a web page (sniffed before). */
export function looksLikeXml(head: string): boolean {
  const h = head.replace(/^\uFEFF/, '').replace(/^(\s|<!--[\s\S]*?-->)*/, '');
  return h.startsWith('<?xml') || /^<(rss|feed|rdf:RDF)[\s>]/.test(h);
}

/**
 * JSON or JSON Lines: an object or array that parses, or a first line that does (JSON Lines, or a
 * file too long to test whole).
 */
export function looksLikeJson(text: string, complete: boolean): boolean {
  const t = text.replace(/^\uFEFF/, '').trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return false;
  if (complete && parses(t)) return true;
  const first = t.split(/\r?\n/, 1)[0] as string;
  return first.length < t.length && parses(first);
}

/** True when the text is one JSON value. */
export const parses = (s: string): boolean => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

/** Bytes of a text file JSON-sniffed whole; a longer file is judged by its first line (JSON Lines). */
export const MAX_JSON_SNIFF = 1 << 20;

/**
 * The kind a text file's content shows, or undefined. `head` and `tail` are its decoded first and
 * last 2 KB; `start` decodes its first MAX_JSON_SNIFF bytes, only when JSON is possible.
 */
export function sniffTextKind(
  head: string,
  tail: string,
  start: () => { text: string; complete: boolean },
): FileKind | undefined {
  if (looksLikeMbox(head)) return 'mbox';
  if (looksLikeMail(head)) return 'eml';
  if (looksLikeNotebook(head, tail)) return 'ipynb';
  if (looksLikeXml(head)) return 'xml';
  if (/^\uFEFF?\s*[[{]/.test(head)) {
    const { text, complete } = start();
    if (looksLikeJson(text, complete)) return 'json';
  }
  return undefined;
}
