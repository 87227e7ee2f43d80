/**
 * The Markdown of each page of a document rendered with `pageMarkers`, by the document's own page
 * numbers: `pages[n - 1]` is page n, without its separator ('' for a page with nothing on it).
 *
 * Pages are told by their markers (`<!-- page N -->`), not counted: an empty page's marker stands
 * right before the next page's separator, so splitting at whole separators ran the two together
 * and shifted every page after an empty one. Text before the first marker is page 1's (leading
 * empty pages print nothing, and the first page with text after them opens with its marker).
 */
export function pagesOf(md: string): string[] {
  const parts = md.split(/^<!-- page (\d+) -->$/m);
  // Every part but the last ends in the separator of the marker after it.
  const clean = (k: number) =>
    (parts[k] ?? '').replace(k < parts.length - 1 ? /\n\n---\n\n$/ : /\n+$/, '').replace(/^\n+/, '');
  const pages: string[] = [clean(0)];
  for (let k = 1; k < parts.length; k += 2) {
    const n = Number(parts[k]);
    while (pages.length < n - 1) pages.push('');
    pages[n - 1] = clean(k + 1);
  }
  return pages;
}
