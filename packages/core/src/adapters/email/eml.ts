import { decodeCharset, decodeWords, header, type MimeBudget, type MimePart, parsePart } from './mime.ts';
import { emptyMessage, type MailMessage } from './model.ts';

/**
 * A MIME message → MailMessage. The body is the first readable text of the part tree: in
 * `multipart/alternative` the HTML version (else the last plain one), in `multipart/related` its
 * root part with the others as `cid:` pictures, in `multipart/mixed` the leading inline texts.
 * Everything else is an attachment, attached messages included.
 */

const isText = (p: MimePart) => p.type === 'text/plain' || p.type === 'text/html';
const isAttachment = (p: MimePart) => p.disposition === 'attachment' || (!isText(p) && !p.children && !p.message);

function textOf(p: MimePart): string {
  return decodeCharset(p.body ?? new Uint8Array(0), p.params.charset);
}

function addText(msg: MailMessage, p: MimePart): void {
  if (p.type === 'text/html') msg.html = msg.html === undefined ? textOf(p) : `${msg.html}<hr>${textOf(p)}`;
  else msg.text = msg.text === undefined ? textOf(p) : `${msg.text}\n\n${textOf(p)}`;
}

function attach(msg: MailMessage, p: MimePart, index: number): void {
  if (p.message) {
    const inner = toMessage(p.message);
    msg.attachments.push({ name: p.filename ?? `${inner.subject || 'message'}.eml`, message: inner });
    return;
  }
  const ext = p.type.split('/')[1]?.replace(/^x-/, '') ?? 'bin';
  msg.attachments.push({
    name: p.filename || `attachment-${index + 1}.${ext}`,
    contentType: p.type,
    bytes: p.body ?? new Uint8Array(0),
  });
}

/** Walks the part tree, deciding body, pictures and attachments. */
function walk(msg: MailMessage, p: MimePart, bodyTaken: { value: boolean }): void {
  if (p.children) {
    if (p.type === 'multipart/alternative' && !bodyTaken.value) {
      const html = p.children.find((c) => c.type === 'text/html' && c.disposition !== 'attachment');
      const related = p.children.find((c) => c.type === 'multipart/related');
      const plain = [...p.children].reverse().find((c) => c.type === 'text/plain' && c.disposition !== 'attachment');
      const chosen = related ?? html ?? plain;
      if (chosen) {
        if (chosen.children) walk(msg, chosen, bodyTaken);
        else addText(msg, chosen);
        bodyTaken.value = true;
        // Other alternatives are the same text again; anything else in them is still kept.
        for (const c of p.children)
          if (c !== chosen && !isText(c) && !c.type.startsWith('multipart/')) walk(msg, c, bodyTaken);
        return;
      }
    }
    if (p.type === 'multipart/related' && !bodyTaken.value) {
      const rootId = p.params.start?.replace(/^<|>$/g, '');
      const root = (rootId && p.children.find((c) => c.contentId === rootId)) || p.children[0];
      for (const c of p.children) {
        if (c === root) {
          if (c.children) walk(msg, c, bodyTaken);
          else if (isText(c)) addText(msg, c);
          continue;
        }
        if (c.contentId && c.type.startsWith('image/') && c.body) {
          msg.inline.set(c.contentId, { bytes: c.body, mime: c.type });
          if (c.disposition !== 'attachment') continue;
        }
        walk(msg, c, bodyTaken);
      }
      bodyTaken.value = true;
      return;
    }
    for (const c of p.children) walk(msg, c, bodyTaken);
    return;
  }
  if (isText(p) && !isAttachment(p) && !(bodyTaken.value && p.filename)) {
    addText(msg, p);
    return;
  }
  attach(msg, p, msg.attachments.length);
}

export function toMessage(part: MimePart): MailMessage {
  const msg = emptyMessage();
  const h = (name: string) => {
    const v = header(part.headers, name);
    return v === undefined ? undefined : decodeWords(v);
  };
  msg.subject = h('subject');
  msg.from = h('from');
  msg.to = h('to');
  msg.cc = h('cc');
  msg.date = h('date');
  const bodyTaken = { value: false };
  if (part.children || part.message) walk(msg, part, bodyTaken);
  else if (isText(part)) addText(msg, part);
  else attach(msg, part, 0);
  return msg;
}

/** Parses one RFC 5322 message held in [start, end) of a byte string. */
export function readEml(bin: string, start: number, end: number, budget: MimeBudget): MailMessage {
  return toMessage(parsePart(bin, start, end, budget));
}
