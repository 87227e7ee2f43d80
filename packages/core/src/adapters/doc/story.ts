import { throwIfAborted } from '../../errors.ts';
import { append } from '../../util/arrays.ts';
import type { CharProps } from './chpx.ts';
import type { ParaProps } from './sprm.ts';

/** A piece of paragraph content before it becomes tree inlines. */
export type Segment =
  | { kind: 'text'; text: string; href?: string; fmt: number }
  | { kind: 'break' }
  | { kind: 'image'; pic: number | undefined }
  | { kind: 'note'; cp: number };

export interface RawPara {
  segments: Segment[];
  /** The character that ended the paragraph: '\r', '\x07' (table cell or row end) or '' at the story end. */
  mark: string;
  props: ParaProps | undefined;
}

interface Field {
  inResult: boolean;
  instr: string;
  href: string | undefined;
}

/** Target of a HYPERLINK field instruction: the quoted URL, or `#bookmark` for `\l`. */
export function hyperlinkTarget(instr: string): string | undefined {
  const m = /^\s*HYPERLINK\b(.*)$/is.exec(instr);
  if (!m) return undefined;
  const tokens = [...(m[1] as string).matchAll(/"([^"]*)"|(\S+)/g)].map((t) => t[1] ?? t[2] ?? '');
  let url: string | undefined;
  let local: string | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    if (t === '\\l') local = tokens[++i];
    else if (t === '\\o' || t === '\\t') i++;
    else if (t.startsWith('\\')) continue;
    else url ??= t;
  }
  if (url) return local ? `${url}#${local}` : url;
  return local ? `#${local}` : undefined;
}

/**
 * Splits characters [from, to) of the document text into paragraphs, resolving fields (keeps the
 * result, turns HYPERLINK fields into links) and special characters ([MS-DOC] 2.8.25).
 */
export function scanStory(
  text: string,
  from: number,
  to: number,
  propsAt: (cp: number) => ParaProps | undefined,
  charAt: (cp: number) => CharProps,
  signal: AbortSignal,
  anchored?: (cp: number) => RawPara[],
): RawPara[] {
  let pending: RawPara[] = [];
  const paras: RawPara[] = [];
  const fields: Field[] = [];
  let segments: Segment[] = [];
  let buf = '';
  let bufHref: string | undefined;
  let bufFmt = 0;
  let fmt = 0;
  const href = (): string | undefined => {
    for (let i = fields.length - 1; i >= 0; i--) if ((fields[i] as Field).href) return (fields[i] as Field).href;
    return undefined;
  };
  const flush = (): void => {
    if (buf) {
      segments.push(
        bufHref ? { kind: 'text', text: buf, href: bufHref, fmt: bufFmt } : { kind: 'text', text: buf, fmt: bufFmt },
      );
    }
    buf = '';
  };
  const emit = (s: string): void => {
    const h = href();
    if (h !== bufHref || fmt !== bufFmt) {
      flush();
      bufHref = h;
      bufFmt = fmt;
    }
    buf += s;
  };
  const push = (seg: Segment): void => {
    flush();
    segments.push(seg);
  };
  const end = Math.min(to, text.length);
  for (let cp = from; cp < end; cp++) {
    if ((cp & 0x3fff) === 0) throwIfAborted(signal);
    const ch = text[cp] as string;
    const top = fields[fields.length - 1];
    if (ch === '\x13') {
      if (fields.length < 64) fields.push({ inResult: false, instr: '', href: undefined });
      continue;
    }
    if (ch === '\x14' && top) {
      top.inResult = true;
      top.href = hyperlinkTarget(top.instr);
      continue;
    }
    if (ch === '\x15' && top) {
      fields.pop();
      continue;
    }
    if (ch === '\r' || ch === '\x07') {
      flush();
      const host: RawPara = { segments, mark: ch, props: propsAt(cp) };
      place(host, pending, paras);
      pending = [];
      segments = [];
      continue;
    }
    if (top && !top.inResult) {
      top.instr += ch;
      continue;
    }
    const chp = charAt(cp);
    if (chp.skip) continue;
    fmt = chp.fmt;
    switch (ch) {
      case '\x01':
        push({ kind: 'image', pic: chp.pic });
        break;
      case '\x02':
        push({ kind: 'note', cp });
        break;
      case '\x08':
        if (anchored) append(pending, anchored(cp));
        break;
      case '\x0b':
      case '\x0e':
        push({ kind: 'break' });
        break;
      case '\x0c':
        // Page and section breaks separate paragraphs in the output.
        flush();
        if (segments.length) {
          paras.push({ segments, mark: '\r', props: propsAt(cp) });
          segments = [];
        }
        break;
      case '\t':
        emit(' ');
        break;
      case '\x1e':
      case '\u2011':
        emit('-');
        break;
      default:
        if (ch >= ' ' || ch === '\u00a0') emit(ch);
    }
  }
  flush();
  if (segments.length || pending.length) place({ segments, mark: '', props: undefined }, pending, paras);
  return paras;
}

/**
 * Puts text box paragraphs next to the paragraph that anchors them: after it in running text,
 * before it inside a table so they stay in the anchoring cell (the cell mark closes the cell).
 */
function place(host: RawPara, boxes: RawPara[], out: RawPara[]): void {
  const hostProps = host.props;
  if (!boxes.length) {
    out.push(host);
    return;
  }
  const inTable = host.mark === '\x07' || !!hostProps?.inTable || (hostProps?.itap ?? 0) > 0;
  if (!inTable) {
    out.push(host, ...boxes);
    return;
  }
  for (const p of boxes) {
    const props =
      p.props && hostProps
        ? { ...p.props, inTable: true, itap: hostProps.itap, ttp: false, innerTtp: false, innerCell: false }
        : hostProps;
    out.push({ ...p, mark: '\r', props });
  }
  out.push(host);
}
