/**
 * The DOM costs a few hundred bytes per node: 47 MB of `<p>x</p>` is 12 million nodes, past the
 * heap of a default Node process, which then dies. Before the markup is parsed it is cut just before
 * the start tag past `max`, keeping the document-order prefix as the output guard does. Comments,
 * CDATA and the insides of scripts and style sheets make no elements, so what looks like a tag
 * there (`i<n`, a template string of markup, a commented-out block) is not counted: a page with a
 * large inline script must not lose its text to it.
 */
const TOKEN =
  /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<(script|style)(?=[\s/>])[\s\S]*?(?:<\/\1\s*>|$)|<[a-zA-Z]/gi;

export function capElements(markup: string, max: number): { markup: string; cut: boolean } {
  let seen = 0;
  for (const m of markup.matchAll(TOKEN)) {
    if (m[0].startsWith('<!')) continue;
    if (++seen > max) return { markup: markup.slice(0, m.index), cut: true };
  }
  return { markup, cut: false };
}
