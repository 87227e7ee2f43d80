import type { FormatType } from '../../options/schema.ts';
import type { Block } from '../../tree/types.ts';
import type { AdapterContext } from '../types.ts';

/**
 * HTML held inside another format (a mail body, a feed item, a Markdown file's HTML block, a
 * notebook output) as blocks, through the HTML adapter, loaded on first use. Only the tree is
 * needed: no `data.html`, no link harvest, no selectors; page-chrome removal only when asked, since
 * a fragment's `<header>` or `<nav>` is content.
 */
export async function htmlBlocks(
  html: string | Uint8Array,
  ctx: AdapterContext,
  opts: { onlyMainContent?: boolean; name?: string } = {},
): Promise<Block[]> {
  const { adapter } = await import('../html/index.ts');
  // Decoded text is re-encoded with a byte-order mark, which outranks any `<meta charset>` it holds.
  const bytes = typeof html === 'string' ? new TextEncoder().encode(`\uFEFF${html}`) : html;
  const out = await adapter.parse(bytes, {
    ...ctx,
    kind: 'html',
    filename: opts.name,
    sourceURL: undefined,
    options: {
      ...ctx.options,
      formats: new Set<FormatType>(),
      onlyMainContent: opts.onlyMainContent ?? false,
      includeTags: [],
      excludeTags: [],
    },
  });
  return out.tree.children;
}
