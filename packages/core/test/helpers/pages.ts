/**
 * The Markdown of each page of a document rendered with `pageMarkers`, by the document's own page
 * numbers: `pages[n - 1]` is page n, without its separator ('' for a page with nothing on it).
 *
 * Pages are told by their markers (`<!-- page N -->`), not counted: an empty page's marker stands
 * right before the next page's separator, so splitting at whole separators ran the two together
 * and shifted every page after an empty one. The first page with text has no marker before it: it
 * is the page before the first marker (leading empty pages print nothing), page 1 without one.
 */
export function pagesOf(md: string): string[] {
  const parts = md.split(/^<!-- page (\d+) -->$/m);
  // Every part but the last ends in the separator of the marker after it.
  const clean = (k: number) =>
    (parts[k] ?? '').replace(k < parts.length - 1 ? /\n\n---\n\n$/ : /\n+$/, '').replace(/^\n+/, '');
  const pages: string[] = [];
  const first = parts.length > 1 ? Number(parts[1]) - 1 : 1;
  for (let n = 1; n < first; n++) pages.push('');
  pages.push(clean(0));
  for (let k = 1; k < parts.length; k += 2) {
    const n = Number(parts[k]);
    while (pages.length < n - 1) pages.push('');
    pages[n - 1] = clean(k + 1);
  }
  return pages;
}
