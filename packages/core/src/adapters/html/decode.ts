import { bomEncoding, type Decoded, decodeText, sniffUtf16 } from '../../util/charset.ts';

/**
 * The encoding a page declares in its first kilobyte: `<meta charset>`, the http-equiv
 * Content-Type form, or an XML declaration (XHTML). Read as Latin-1 so any byte survives, or as
 * UTF-16 when the bytes are (a page saved as UTF-16 without a byte-order mark still declares).
 */
export function declaredCharset(bytes: Uint8Array): string | undefined {
  const wide = sniffUtf16(bytes);
  const head = new TextDecoder(wide ?? 'windows-1252').decode(bytes.subarray(0, wide ? 2048 : 1024));
  const meta =
    /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head) ?? /<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i.exec(head);
  return meta?.[1];
}

export function decodeHtml(bytes: Uint8Array): Decoded {
  return decodeText(bytes, bomEncoding(bytes) ? undefined : declaredCharset(bytes));
}
