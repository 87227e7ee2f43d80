/**
 * The well-formed prefix of an XML document cut short (a file whose end is lost): the text up to the
 * last complete markup, with the elements still open at that point closed, in order. What was cut
 * mid-tag, mid-comment or mid-reference is dropped.
 */
const MARKUP =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<!(?!--|\[CDATA\[)[^>]*>|<(\/?)([A-Za-z_][^\s/>]*)[^>]*?(\/?)>/g;

export function closeCutXml(xml: string): string {
  const open: string[] = [];
  let end = 0;
  MARKUP.lastIndex = 0;
  for (let m = MARKUP.exec(xml); m; m = MARKUP.exec(xml)) {
    // Text between two pieces of markup holds no '<'; one that does is where a piece was cut.
    const lt = xml.indexOf('<', end);
    if (lt >= 0 && lt < m.index) break;
    const [, close, name, selfClosing] = m;
    if (name && !selfClosing) {
      if (close) {
        if (open[open.length - 1] === name) open.pop();
      } else open.push(name);
    }
    end = MARKUP.lastIndex;
  }
  // Text after the last markup is kept up to where it was cut: not past a '<' or a partial reference.
  let tail = xml.slice(end);
  const lt = tail.indexOf('<');
  if (lt >= 0) tail = tail.slice(0, lt);
  tail = tail.replace(/&[^;\s<]*$/, '');
  return `${xml.slice(0, end)}${tail}${open
    .reverse()
    .map((n) => `</${n}>`)
    .join('')}`;
}
