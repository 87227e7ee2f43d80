import { badInput, throwIfAborted } from '../../errors.ts';
import { type Cfb, openCfb } from '../cfb/index.ts';
import { decodeBytes } from '../rtf/codepage.ts';
import { decodeWords, header, parseHeaders } from './mime.ts';
import { emptyMessage, type MailAttachment, type MailMessage } from './model.ts';
import { decompressRtf } from './rtf-compressed.ts';

/**
 * Outlook items (`.msg`, [MS-OXMSG]): a compound file of MAPI properties, read with our CFB reader.
 * Variable-size properties are streams `__substg1.0_<id><type>`; fixed-size ones sit in the
 * `__properties_version1.0` table. Recipients and attachments are sub-storages; an attached
 * message is a storage holding a message of its own, read the same way down to the nesting limit.
 */

const PT_STRING8 = '001E';
const PT_UNICODE = '001F';
const PT_BINARY = '0102';
const PT_LONG = 0x0003;
const PT_SYSTIME = 0x0040;

const PR = {
  subject: '0037',
  transportHeaders: '007D',
  senderName: '0C1A',
  senderEmail: '0C1F',
  senderSmtp: '5D01',
  sentRepresentingName: '0042',
  displayTo: '0E04',
  displayCc: '0E03',
  body: '1000',
  html: '1013',
  rtfCompressed: '1009',
  displayName: '3001',
  emailAddress: '3003',
  smtpAddress: '39FE',
  attachData: '3701',
  attachFilename: '3704',
  attachLongFilename: '3707',
  attachMime: '370E',
  attachContentId: '3712',
} as const;

const ID_CLIENT_SUBMIT_TIME = 0x0039;
const ID_DELIVERY_TIME = 0x0e06;
const ID_RECIPIENT_TYPE = 0x0c15;
const ID_CODEPAGE = 0x3ffd;
const ID_INTERNET_CPID = 0x3fde;

/** Fixed-size properties of a storage's property table, by property id. */
function fixedProperties(storage: Cfb, headerSize: number): Map<number, { type: number; value: DataView }> {
  const out = new Map<number, { type: number; value: DataView }>();
  const table = storage.stream('__properties_version1.0');
  if (!table) return out;
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
  for (let off = headerSize; off + 16 <= table.length; off += 16) {
    const type = view.getUint16(off, true);
    const id = view.getUint16(off + 2, true);
    if (!out.has(id)) out.set(id, { type, value: new DataView(table.buffer, table.byteOffset + off + 8, 8) });
  }
  return out;
}

/** A PT_SYSTIME (FILETIME, 100 ns since 1601) as an RFC 5322-style UTC date. */
function filetime(v: DataView): string | undefined {
  const ticks = v.getUint32(4, true) * 2 ** 32 + v.getUint32(0, true);
  const ms = ticks / 1e4 - 11644473600000;
  if (!Number.isFinite(ms) || ms <= 0 || ms > 8.64e15) return undefined;
  return new Date(ms).toUTCString().replace('GMT', '+0000');
}

interface Props {
  string(id: string): string | undefined;
  binary(id: string): Uint8Array | undefined;
  long(id: number): number | undefined;
  time(id: number): string | undefined;
}

function props(storage: Cfb, headerSize: number, codepage?: number): Props {
  const fixed = fixedProperties(storage, headerSize);
  const cp = codepage ?? fixedLong(fixed, ID_CODEPAGE) ?? fixedLong(fixed, ID_INTERNET_CPID) ?? 1252;
  return {
    string(id) {
      const wide = storage.stream(`__substg1.0_${id}${PT_UNICODE}`);
      if (wide) return new TextDecoder('utf-16le').decode(wide).replace(/\0+$/, '');
      const narrow = storage.stream(`__substg1.0_${id}${PT_STRING8}`);
      return narrow ? decodeBytes(cp, narrow).replace(/\0+$/, '') : undefined;
    },
    binary: (id) => storage.stream(`__substg1.0_${id}${PT_BINARY}`),
    long: (id) => fixedLong(fixed, id),
    time(id) {
      const p = fixed.get(id);
      return p?.type === PT_SYSTIME ? filetime(p.value) : undefined;
    },
  };
}

function fixedLong(fixed: Map<number, { type: number; value: DataView }>, id: number): number | undefined {
  const p = fixed.get(id);
  return p?.type === PT_LONG ? p.value.getInt32(0, true) : undefined;
}

const addressOf = (name: string | undefined, address: string | undefined): string | undefined => {
  const n = name?.trim();
  const a = address?.trim();
  if (a && n && n !== a && a.includes('@')) return `${n} <${a}>`;
  return n || (a?.includes('@') ? a : undefined);
};

/** Recipients by type (1 To, 2 Cc), with addresses, from the `__recip_version1.0_#…` storages. */
function recipients(storage: Cfb, codepage: number): { to: string[]; cc: string[] } {
  const out = { to: [] as string[], cc: [] as string[] };
  for (const name of storage.names) {
    if (!name.startsWith('__recip_version1.0_#')) continue;
    const r = storage.storage(name);
    if (!r) continue;
    const p = props(r, 8, codepage);
    const who = addressOf(p.string(PR.displayName), p.string(PR.smtpAddress) ?? p.string(PR.emailAddress));
    if (!who) continue;
    const type = p.long(ID_RECIPIENT_TYPE) ?? 1;
    if (type === 1) out.to.push(who);
    else if (type === 2) out.cc.push(who);
  }
  return out;
}

export interface MsgLimits {
  depth: number;
  signal?: AbortSignal | undefined;
  warn(message: string): void;
}

function readMessage(storage: Cfb, headerSize: number, limits: MsgLimits, depth: number): MailMessage {
  throwIfAborted(limits.signal);
  const p = props(storage, headerSize);
  const codepage = p.long(ID_INTERNET_CPID) ?? p.long(ID_CODEPAGE) ?? 1252;
  const msg = emptyMessage();
  const transport = p.string(PR.transportHeaders);
  const th = transport ? parseHeaders(transport) : [];
  const fromHeaders = (name: string) => {
    const v = header(th, name);
    return v === undefined ? undefined : decodeWords(v);
  };
  msg.subject = p.string(PR.subject);
  msg.from =
    addressOf(
      p.string(PR.senderName) ?? p.string(PR.sentRepresentingName),
      p.string(PR.senderSmtp) ?? p.string(PR.senderEmail),
    ) ?? fromHeaders('from');
  const recips = recipients(storage, codepage);
  msg.to = (recips.to.length ? recips.to.join(', ') : undefined) ?? (p.string(PR.displayTo) || fromHeaders('to'));
  msg.cc = (recips.cc.length ? recips.cc.join(', ') : undefined) ?? (p.string(PR.displayCc) || fromHeaders('cc'));
  msg.date = fromHeaders('date') ?? p.time(ID_CLIENT_SUBMIT_TIME) ?? p.time(ID_DELIVERY_TIME);
  const htmlBytes = p.binary(PR.html);
  msg.html = htmlBytes ? decodeBytes(codepage, htmlBytes) : p.string(PR.html);
  msg.text = p.string(PR.body);
  if (!msg.html && !msg.text) {
    const rtf = p.binary(PR.rtfCompressed);
    if (rtf) {
      try {
        msg.rtf = decompressRtf(rtf);
      } catch (err) {
        limits.warn(`The message's RTF body could not be decompressed (${(err as Error).message}).`);
      }
    }
  }
  for (const name of storage.names) {
    if (!name.startsWith('__attach_version1.0_#')) continue;
    const a = storage.storage(name);
    if (a) {
      const attachment = readAttachment(a, codepage, limits, depth, msg);
      if (attachment) msg.attachments.push(attachment);
    }
  }
  return msg;
}

function readAttachment(
  storage: Cfb,
  codepage: number,
  limits: MsgLimits,
  depth: number,
  msg: MailMessage,
): MailAttachment | undefined {
  const p = props(storage, 8, codepage);
  const name = p.string(PR.attachLongFilename) || p.string(PR.attachFilename) || p.string(PR.displayName) || '';
  const embedded = storage.storage(`__substg1.0_${PR.attachData}000D`);
  if (embedded) {
    if (depth + 1 > limits.depth) {
      limits.warn(`An attached message "${name || 'message'}" is nested more than ${limits.depth} deep; not read.`);
      return undefined;
    }
    const inner = readMessage(embedded, 24, limits, depth + 1);
    return { name: name || `${inner.subject || 'message'}.msg`, message: inner };
  }
  const bytes = p.binary(PR.attachData);
  if (!bytes) return undefined;
  const mime = p.string(PR.attachMime)?.toLowerCase();
  const cid = p.string(PR.attachContentId);
  // Pictures the HTML body shows by content id are part of the body, not attachments.
  if (cid && mime?.startsWith('image/') && msg.html?.includes(`cid:${cid}`)) {
    msg.inline.set(cid, { bytes, mime });
    return undefined;
  }
  return { name: name || 'attachment', contentType: mime, bytes };
}

/** Reads an Outlook item. A damaged compound file is a 400 from the CFB reader. */
export function readMsg(bytes: Uint8Array, limits: MsgLimits): MailMessage {
  const root = openCfb(bytes, limits.signal);
  if (!root.has('__properties_version1.0') && !root.names.some((n) => n.startsWith('__substg1.0_')))
    throw badInput('The compound file holds no Outlook message properties.');
  return readMessage(root, 32, limits, 0);
}
