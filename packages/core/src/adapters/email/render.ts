import { throwIfAborted } from '../../errors.ts';
import { blockquote, heading, paragraph, section, text } from '../../tree/build.ts';
import type { Block, Inline, Section } from '../../tree/types.ts';
import { walk } from '../../tree/walk.ts';
import { append } from '../../util/arrays.ts';
import { toBase64 } from '../../util/bytes.ts';
import { isSkippable, nestUnder, skipReason } from '../common/embedded.ts';
import { htmlBlocks } from '../common/html-fragment.ts';
import { plainTextBlocks } from '../text/blocks.ts';
import type { AdapterContext } from '../types.ts';
import type { MailMessage } from './model.ts';

/**
 * A message as blocks: the subject as a heading, a small header block (From, To, Cc, Date,
 * Attachments), the body (HTML through the HTML adapter with its `cid:` pictures, plain text with
 * its quoted lines as quotes, RTF through the RTF adapter), then one `attachment` section per
 * attachment, parsed as the engine parses any upload (ctx.embed), each in its own budget; attached
 * messages become `message` sections rendered the same way.
 */

/** Quote levels of a plain-text body kept as nested quotes; deeper ones are flattened. */
const MAX_QUOTE_DEPTH = 8;

/** Plain text with `>`-quoted runs as quotes (what mail clients show). */
export function mailTextBlocks(value: string, signal?: AbortSignal, level = 0): Block[] {
  const lines = value.replace(/\r\n?/g, '\n').split('\n');
  const out: Block[] = [];
  let run: string[] = [];
  let quoted = false;
  const flush = () => {
    if (!run.length) return;
    const body = run.join('\n');
    if (quoted && level < MAX_QUOTE_DEPTH) {
      const inner = mailTextBlocks(body, signal, level + 1);
      if (inner.length) out.push(blockquote(inner));
    } else append(out, plainTextBlocks(body, signal));
    run = [];
  };
  for (const line of lines) {
    const q = /^>/.test(line);
    if (q !== quoted) {
      flush();
      quoted = q;
    }
    run.push(q ? line.replace(/^> ?/, '') : line);
  }
  flush();
  return out;
}

function headerBlock(msg: MailMessage): Block | undefined {
  const out: Inline[] = [];
  const add = (label: string, value: string | undefined) => {
    const v = value?.replace(/\s+/g, ' ').trim();
    if (!v) return;
    if (out.length) out.push({ type: 'break' });
    out.push({ type: 'strong', children: [text(`${label}:`)] }, text(` ${v}`));
  };
  add('From', msg.from);
  add('To', msg.to);
  add('Cc', msg.cc);
  add('Date', msg.date);
  if (msg.attachments.length) add('Attachments', msg.attachments.map((a) => a.name).join(', '));
  return out.length ? paragraph(out) : undefined;
}

/** `cid:` pictures of an HTML body: data URIs when base64 images are kept, else references. */
function resolveCids(blocks: Block[], msg: MailMessage, ctx: AdapterContext): void {
  for (const b of blocks)
    walk(b, (n) => {
      if (n.type !== 'image' || !n.url?.toLowerCase().startsWith('cid:')) return undefined;
      const pic = msg.inline.get(decodeURIComponent(n.url.slice(4)));
      if (!pic) return undefined;
      n.mime = pic.mime;
      if (ctx.options.removeBase64Images) {
        n.ref = n.url;
        delete n.url;
      } else n.url = `data:${pic.mime};base64,${toBase64(pic.bytes)}`;
      return undefined;
    });
}

async function bodyBlocks(msg: MailMessage, ctx: AdapterContext): Promise<Block[]> {
  if (msg.html?.trim()) {
    try {
      const blocks = await htmlBlocks(msg.html, ctx);
      resolveCids(blocks, msg, ctx);
      return blocks;
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      if (!msg.text) return plainTextBlocks(msg.html.replace(/<[^>]*>/g, ' '));
    }
  }
  if (msg.text?.trim()) return mailTextBlocks(msg.text, ctx.signal);
  if (msg.rtf?.length) {
    const { adapter } = await import('../rtf/index.ts');
    const out = await adapter.parse(msg.rtf, { ...ctx, kind: 'rtf' });
    return out.tree.children;
  }
  return [];
}

/** What could not be read, collected for one warning per upload part. */
export interface Skipped {
  list: string[];
}

async function attachmentSection(
  name: string,
  bytes: Uint8Array,
  contentType: string | undefined,
  number: number,
  depth: number,
  ctx: AdapterContext,
  skipped: Skipped,
): Promise<Section | undefined> {
  if (!ctx.embed) {
    skipped.list.push(`${name} (attachments are read only inside the engine)`);
    return undefined;
  }
  try {
    const doc = await ctx.embed(bytes, name, { contentType });
    const blocks = append([heading(depth, name)], nestUnder(doc.tree.children, depth));
    return section('attachment', number, blocks, { name });
  } catch (err) {
    if (!isSkippable(err, ctx.signal)) throw err;
    skipped.list.push(`${name} (${skipReason(err, name)})`);
    return undefined;
  }
}

/** The message's blocks, its subject a heading of `depth`. */
export async function messageBlocks(
  msg: MailMessage,
  depth: number,
  ctx: AdapterContext,
  skipped: Skipped,
): Promise<Block[]> {
  throwIfAborted(ctx.signal);
  const out: Block[] = [heading(depth, msg.subject?.trim() || '(no subject)')];
  const head = headerBlock(msg);
  if (head) out.push(head);
  append(out, await bodyBlocks(msg, ctx));
  for (const [i, a] of msg.attachments.entries()) {
    if ('message' in a) {
      out.push(section('message', i + 1, await messageBlocks(a.message, depth + 1, ctx, skipped), { name: a.name }));
      continue;
    }
    const s = await attachmentSection(a.name, a.bytes, a.contentType, i + 1, depth + 1, ctx, skipped);
    if (s) out.push(s);
  }
  return out;
}
