/**
 * The DOM costs a few hundred bytes per node: 47 MB of `<p>x</p>` is 12 million nodes, past the
 * heap of a default Node process, which then dies. Before the markup is parsed it is cut just before
 * the start tag past `max` (counted on the raw text, so tags inside scripts and comments count too),
 * keeping the document-order prefix as the output guard does.
 */
export function capElements(markup: string, max: number): { markup: string; cut: boolean } {
  const startTag = /<[a-zA-Z]/g;
  let seen = 0;
  for (const m of markup.matchAll(startTag)) {
    if (++seen > max) return { markup: markup.slice(0, m.index), cut: true };
  }
  return { markup, cut: false };
}
