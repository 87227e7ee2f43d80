/**
 * A `javascript:` URL as a browser reads it: the URL parser drops C0 controls and spaces at the
 * start and tabs and newlines anywhere, so `java&#9;script:` runs like `javascript:`.
 */
export function isScriptUrl(href: string): boolean {
  let i = 0;
  while (i < href.length && href.charCodeAt(i) <= 0x20) i++;
  return /^javascript:/i.test(href.slice(i).replace(/[\t\n\r]/g, ''));
}
