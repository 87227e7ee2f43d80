/**
 * Cuts Markdown into pieces that fit a model's context, at block boundaries (blank lines), never
 * inside a table row or a line unless one line alone is too long. Token counts are estimated from
 * characters: 3 characters per token errs on the safe side for English and most European text.
 */
export const CHARS_PER_TOKEN = 3;

export function chunkMarkdown(markdown: string, maxChars: number): string[] {
  const limit = Math.max(200, Math.floor(maxChars));
  if (markdown.length <= limit) return markdown.trim() ? [markdown] : [];
  // Each piece remembers how it joins the one before: lines of a split block (table rows) by one newline.
  const pieces: { text: string; joiner: string }[] = [];
  for (const block of markdown.split(/\n{2,}/)) {
    if (block.length <= limit) {
      pieces.push({ text: block, joiner: '\n\n' });
      continue;
    }
    block.split('\n').forEach((line, i) => {
      for (let at = 0; at < line.length; at += limit)
        pieces.push({ text: line.slice(at, at + limit), joiner: i === 0 && at === 0 ? '\n\n' : '\n' });
    });
  }
  const chunks: string[] = [];
  let current = '';
  for (const { text, joiner } of pieces) {
    // A heading starts a new chunk when the current one is already half full: sections stay whole.
    const heading = /^#{1,6} /.test(text) && current.length > limit / 2;
    if (current && (current.length + joiner.length + text.length > limit || heading)) {
      chunks.push(current);
      current = '';
    }
    current = current ? `${current}${joiner}${text}` : text;
  }
  if (current.trim()) chunks.push(current);
  return chunks;
}
