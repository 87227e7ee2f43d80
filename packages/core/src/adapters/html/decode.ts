import { bomEncoding, type Decoded, decodeText } from '../../util/charset.ts';

/**
 * The encoding a page declares in its first kilobyte: `<meta charset>`, the http-equiv
 * Content-Type form, or an XML declaration (XHTML). Read as Latin-1 so any byte survives.
 */
export function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('windows-1252').decode(bytes.subarray(0, 1024));
  const meta =
    /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head) ?? /<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i.exec(head);
  return meta?.[1];
}

export function decodeHtml(bytes: Uint8Array): Decoded {
  return decodeText(bytes, bomEncoding(bytes) ? undefined : declaredCharset(bytes));
}
