import { badInput, throwIfAborted } from '../../errors.ts';
import { root, section } from '../../tree/build.ts';
import type { Block, DocumentMetadata, Section } from '../../tree/types.ts';
import type { Adapter, AdapterContext } from '../types.ts';
import { readEml } from './eml.ts';
import { binaryString, type MimeBudget } from './mime.ts';
import type { MailMessage } from './model.ts';
import { readMsg } from './msg.ts';
import { messageBlocks, type Skipped } from './render.ts';

/**
 * E-mail: `.eml` (RFC 5322 / MIME), `.mbox` (one `message` section per message) and Outlook `.msg`
 * (MAPI properties in a compound file). Each message shows its subject, a header block and its
 * body; attachments are parsed as documents of their own (render.ts).
 */

/**
 * A message's header block is text; binary bytes at the start mean this is no message (8-bit
 * bodies come after the headers). Same measure as detection's: NULs or over 5% control bytes.
 */
function refuseBinary(bin: string): void {
  const head = bin.slice(0, 4096);
  let control = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if (c === 0) throw badInput('The file holds binary data, not a readable e-mail message.');
    if (c < 8 || (c > 13 && c < 32 && c !== 27)) control++;
  }
  if (control > head.length * 0.05) throw badInput('The file holds binary data, not a readable e-mail message.');
}

const budgetFor = (ctx: AdapterContext): MimeBudget => ({
  parts: ctx.limits.maxMailParts,
  depth: Math.max(1, ctx.limits.maxNestingDepth) * 4,
  warn: ctx.warn,
  signal: ctx.signal,
});

function warnBudget(budget: MimeBudget, ctx: AdapterContext, what: string): void {
  if (budget.exhausted)
    ctx.warn(
      `${what} has more than ${ctx.limits.maxMailParts} MIME parts; the rest were not read (limit maxMailParts).`,
    );
}

function warnSkipped(skipped: Skipped, ctx: AdapterContext): void {
  if (skipped.list.length) ctx.warn(`Attachments not read: ${skipped.list.join('; ')}.`);
}

function metadataOf(msg: MailMessage): DocumentMetadata {
  const meta: DocumentMetadata = {};
  if (msg.subject?.trim()) meta.title = msg.subject.trim();
  if (msg.from) meta.author = msg.from;
  if (msg.date) meta.date = msg.date;
  return meta;
}

async function single(msg: MailMessage, ctx: AdapterContext): Promise<{ tree: ReturnType<typeof root> }> {
  const skipped: Skipped = { list: [] };
  const blocks = await messageBlocks(msg, 1, ctx, skipped);
  warnSkipped(skipped, ctx);
  return { tree: root(blocks, metadataOf(msg)) };
}

/** Where each message of an mbox starts: a "From " line at the start of the file or after a blank line. */
function mboxStarts(bin: string): number[] {
  const starts: number[] = [];
  if (bin.startsWith('From ')) starts.push(0);
  let at = 0;
  for (;;) {
    const found = bin.indexOf('\nFrom ', at);
    if (found < 0) return starts;
    // mboxo/mboxrd separate messages with an empty line; a body line "From …" is escaped as ">From".
    if (found === 0 || bin[found - 1] === '\n' || (bin[found - 1] === '\r' && bin[found - 2] === '\n'))
      starts.push(found + 1);
    at = found + 1;
  }
}

async function mbox(bytes: Uint8Array, ctx: AdapterContext) {
  const bin = binaryString(bytes);
  refuseBinary(bin);
  const starts = mboxStarts(bin);
  if (!starts.length) starts.push(0);
  const max = ctx.limits.maxMessages;
  if (starts.length > max)
    ctx.warn(`The mailbox holds ${starts.length} messages; only the first ${max} were read (limit maxMessages).`);
  const sections: Section[] = [];
  const skipped: Skipped = { list: [] };
  for (const [i, start] of starts.slice(0, max).entries()) {
    throwIfAborted(ctx.signal);
    ctx.progress?.(i, Math.min(starts.length, max), 'parts');
    const end = starts[i + 1] ?? bin.length;
    // Skip the "From " separator line; unescape mboxrd's ">From " body lines.
    const lineEnd = bin.indexOf('\n', start);
    const body = bin.slice(lineEnd < 0 || lineEnd >= end ? end : lineEnd + 1, end).replace(/^>(>*From )/gm, '$1');
    const budget = budgetFor(ctx);
    const msg = readEml(body, 0, body.length, budget);
    warnBudget(budget, ctx, `Message ${i + 1}`);
    const blocks: Block[] = await messageBlocks(msg, 2, ctx, skipped);
    sections.push(section('message', i + 1, blocks, msg.subject ? { name: msg.subject } : {}));
  }
  warnSkipped(skipped, ctx);
  const meta: DocumentMetadata = { numPages: sections.length };
  return { tree: root(sections, meta) };
}

export const adapter: Adapter = {
  name: 'email',
  kinds: ['eml', 'mbox', 'msg'],
  async parse(bytes, ctx) {
    throwIfAborted(ctx.signal);
    if (ctx.kind === 'mbox') return mbox(bytes, ctx);
    if (ctx.kind === 'msg') {
      const msg = readMsg(bytes, { depth: ctx.limits.maxNestingDepth, signal: ctx.signal, warn: ctx.warn });
      return single(msg, ctx);
    }
    const bin = binaryString(bytes);
    refuseBinary(bin);
    const budget = budgetFor(ctx);
    const msg = readEml(bin, 0, bin.length, budget);
    warnBudget(budget, ctx, 'The message');
    return single(msg, ctx);
  },
};
