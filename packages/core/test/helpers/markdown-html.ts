/**
 * Turns simple Markdown (text lines and pipe tables, as text-layer converters print invoices) into
 * HTML for the HTML adapter, so extraction tests can feed the same document laid out one line per
 * paragraph, independent of how any PDF backend assembles text.
 */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

export function markdownToHtml(markdown: string): string {
  const out: string[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^\s*\|/.test(line)) {
      const rows: string[][] = [];
      while (i < lines.length && /^\s*\|/.test(lines[i] ?? '')) {
        const row = cells(lines[i] ?? '');
        if (!row.every((c) => /^:?-{2,}:?$/.test(c))) rows.push(row);
        i++;
      }
      i--;
      const [head, ...body] = rows;
      out.push(
        `<table><thead><tr>${(head ?? []).map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>${body
          .map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`,
      );
    } else if (line.trim()) out.push(`<p>${esc(line.trim().replace(/^#+\s*/, ''))}</p>`);
  }
  return `<!doctype html><html><body><main>${out.join('\n')}</main></body></html>`;
}
