import { badInput, throwIfAborted } from '../../errors.ts';
import { code, image, root } from '../../tree/build.ts';
import type { Block, DocumentMetadata } from '../../tree/types.ts';
import { blockText, walk } from '../../tree/walk.ts';
import { append } from '../../util/arrays.ts';
import { toBase64 } from '../../util/bytes.ts';
import { decodeTextFile } from '../../util/text-file.ts';
import { htmlBlocks } from '../common/html-fragment.ts';
import { parseMarkdownText } from '../markdown/index.ts';
import type { Adapter, AdapterContext } from '../types.ts';

/**
 * Jupyter notebooks (nbformat 4, and 3's worksheets): markdown cells parsed as Markdown (their
 * attached pictures resolved), code cells as code blocks in the kernel's language, then their
 * outputs: pictures as images, HTML (a DataFrame's table) through the HTML adapter, Markdown as
 * Markdown, text and errors as plain code blocks.
 */

type Json = Record<string, unknown>;
type MimeBundle = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** nbformat stores multi-line strings as arrays of lines. */
const joined = (v: unknown): string => (Array.isArray(v) ? v.map(String).join('') : typeof v === 'string' ? v : '');
/** Terminal colour codes in tracebacks and some stream outputs. */
const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'];

function dataUri(mime: string, value: unknown): string {
  const raw = joined(value);
  // SVG is stored as text; the raster types as base64 already.
  const payload = mime === 'image/svg+xml' ? toBase64(new TextEncoder().encode(raw)) : raw.replace(/\s+/g, '');
  return `data:${mime};base64,${payload}`;
}

async function richOutput(data: MimeBundle, ctx: AdapterContext): Promise<Block[]> {
  const picture = IMAGE_TYPES.find((t) => t in data);
  if (picture) {
    const alt =
      joined(data['text/plain'])
        .replace(/^<(.*)>$/, '$1')
        .trim() || 'output';
    return [image(alt, { url: dataUri(picture, data[picture]), mime: picture })];
  }
  if ('text/markdown' in data) return parseMarkdownText(joined(data['text/markdown']), ctx);
  if ('text/html' in data) {
    try {
      const blocks = await htmlBlocks(joined(data['text/html']), ctx);
      if (blocks.length) return blocks;
    } catch (err) {
      if (ctx.signal.aborted) throw err;
    }
  }
  for (const t of ['text/plain', 'text/latex', 'application/json']) {
    if (!(t in data)) continue;
    const v = data[t];
    const value = t === 'application/json' && isObject(v) ? JSON.stringify(v, null, 2) : joined(v);
    if (value.trim()) return [code(value.replace(/\n+$/, ''))];
  }
  return [];
}

async function outputBlocks(output: Json, ctx: AdapterContext): Promise<Block[]> {
  switch (output.output_type) {
    case 'stream': {
      const value = stripAnsi(joined(output.text)).replace(/\n+$/, '');
      return value.trim() ? [code(value)] : [];
    }
    case 'execute_result':
    case 'display_data':
    case 'pyout':
      return isObject(output.data) ? richOutput(output.data, ctx) : richOutput(output as MimeBundle, ctx);
    case 'error':
    case 'pyerr': {
      const value = `${String(output.ename ?? 'Error')}: ${stripAnsi(String(output.evalue ?? ''))}`;
      return [code(value)];
    }
    default:
      return [];
  }
}

/** Markdown cells' `![x](attachment:name.png)` pictures become data URIs from the cell's attachments. */
function resolveAttachments(blocks: Block[], attachments: unknown): void {
  if (!isObject(attachments)) return;
  for (const b of blocks)
    walk(b, (n) => {
      if (n.type !== 'image' || !n.url?.startsWith('attachment:')) return undefined;
      const bundle = attachments[decodeURIComponent(n.url.slice('attachment:'.length))];
      const mime = isObject(bundle) ? IMAGE_TYPES.find((t) => t in bundle) : undefined;
      if (mime && isObject(bundle)) {
        n.url = dataUri(mime, bundle[mime]);
        n.mime = mime;
      }
      return undefined;
    });
}

function kernelLanguage(meta: unknown): string | undefined {
  if (!isObject(meta)) return undefined;
  const spec = isObject(meta.kernelspec) ? meta.kernelspec.language : undefined;
  const info = isObject(meta.language_info) ? meta.language_info.name : undefined;
  const lang = typeof spec === 'string' ? spec : typeof info === 'string' ? info : meta.language;
  return typeof lang === 'string' && lang ? lang.toLowerCase() : undefined;
}

export const adapter: Adapter = {
  name: 'notebook',
  kinds: ['ipynb'],
  async parse(bytes, ctx) {
    throwIfAborted(ctx.signal);
    const { text } = decodeTextFile(bytes, 'notebook (JSON) file');
    let nb: unknown;
    try {
      nb = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (err) {
      throw badInput(`The notebook is not valid JSON: ${(err as Error).message}`, err);
    }
    if (!isObject(nb)) throw badInput('The notebook is not a JSON object.');
    const worksheets = Array.isArray(nb.worksheets) ? nb.worksheets : [];
    const cells = Array.isArray(nb.cells)
      ? nb.cells
      : worksheets.flatMap((w) => (isObject(w) && Array.isArray(w.cells) ? w.cells : []));
    if (!Array.isArray(nb.cells) && !worksheets.length)
      throw badInput('The notebook has no cells (not a Jupyter notebook?).');
    const language = kernelLanguage(nb.metadata) ?? 'python';
    const blocks: Block[] = [];
    for (const [i, cell] of cells.entries()) {
      if (i % 256 === 0) throwIfAborted(ctx.signal);
      if (!isObject(cell)) continue;
      const source = joined(cell.source ?? cell.input);
      switch (cell.cell_type) {
        case 'markdown': {
          const md = await parseMarkdownText(source, ctx);
          resolveAttachments(md, cell.attachments);
          append(blocks, md);
          break;
        }
        case 'code': {
          if (source.trim()) blocks.push(code(source.replace(/\n+$/, ''), language));
          for (const out of Array.isArray(cell.outputs) ? cell.outputs : [])
            if (isObject(out)) append(blocks, await outputBlocks(out, ctx));
          break;
        }
        case 'heading': {
          // nbformat 3's own heading cells.
          const level = Math.min(6, Math.max(1, Number(cell.level) || 1));
          append(blocks, await parseMarkdownText(`${'#'.repeat(level)} ${source}`, ctx));
          break;
        }
        default:
          // Raw cells: shown as written.
          if (source.trim()) blocks.push(code(source.replace(/\n+$/, '')));
      }
    }
    const metadata: DocumentMetadata = {};
    const meta = isObject(nb.metadata) ? nb.metadata : {};
    const title = typeof meta.title === 'string' ? meta.title : undefined;
    const h1 = blocks.find((b) => b.type === 'heading' && b.depth === 1);
    if (title || h1) metadata.title = title ?? blockText(h1 as Block).trim();
    if (isObject(meta.authors) || Array.isArray(meta.authors)) {
      const names = (Array.isArray(meta.authors) ? meta.authors : [meta.authors])
        .map((a) => (isObject(a) ? a.name : a))
        .filter((a): a is string => typeof a === 'string');
      if (names.length) metadata.author = names.join(', ');
    }
    return { tree: root(blocks, metadata) };
  },
};
