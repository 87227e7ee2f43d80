import { badInput, throwIfAborted } from '../../errors.ts';
import { image } from '../../tree/build.ts';
import type { Block, FootnoteDefinition } from '../../tree/types.ts';
import { monospacedByName } from '../../util/fonts.ts';
import { itemsToBlocks } from './blocks.ts';
import { charsetCodepage, decodeBytes } from './codepage.ts';
import type { CharFormat, DocInfo, Item, ListLevel, ParaProps, Run, StyleDef } from './model.ts';
import { TableStack } from './tables.ts';
import { Lexer } from './tokens.ts';
import { hyperlinkOf, INFO_KEYS, PICT_MIME, SKIPPED, SPECIAL, STRUCTURE, TABLE_MARKS } from './words.ts';

/**
 * The RTF interpreter: one pass over the tokens with an explicit group stack (no recursion, so
 * nesting depth costs memory, not call stack, and is capped). Each group inherits its parent's
 * state; destinations decide where text goes (body, field instruction, style name, metadata, or
 * nowhere).
 */

/** Groups nested deeper than this mean damage or abuse. */
export const MAX_GROUP_DEPTH = 1000;
/** Share of control/replacement characters in the body text above which the file is refused. */
const MAX_NOISE_SHARE = 0.1;
const NOISE = /[\u0000-\u0008\u000b\u000e-\u001f\ufffd]/g;
/** Footnotes kept; more are read as skipped groups. */
const MAX_NOTES = 10_000;
/** Tokens between abort checks. */
const CHECK_EVERY = 1 << 16;
/** Hex digits of one picture kept for a data URI (≈ 8 MB of image). */
const MAX_PICT_HEX = 16 << 20;

type Dest =
  | 'body'
  | 'skip'
  | 'fonttbl'
  | 'stylesheet'
  | 'info'
  | 'infoField'
  | 'fldinst'
  | 'listtext'
  | 'pict'
  | 'listtable'
  | 'listoverride'
  /** Inside `\shpinst`: shape properties, with text boxes (`\shptxt`) read as body text. */
  | 'shape';

interface Field {
  instr: string;
}

interface Pict {
  mime: string | undefined;
  hex: string[];
  hexLength: number;
}

interface State {
  dest: Dest;
  infoKey: string;
  fmt: CharFormat;
  hidden: boolean;
  font: number;
  /** Characters to skip after `\uN` (`\ucN`). */
  uc: number;
  para: ParaProps;
  href: string | undefined;
  field: Field | undefined;
  pict: Pict | undefined;
  /** Inside `\nesttableprops`: row definitions belong to the nested table. */
  nestProps: boolean;
  /** What this group owns and must finish when it closes. */
  owns: 'pict' | 'style' | 'note' | undefined;
  style: (StyleDef & { id: number }) | undefined;
  /** This group is `\upr`: an ANSI group followed by its Unicode twin `{\*\ud …}`. */
  upr: boolean;
  /** Child of `\upr`: skipped unless it turns out to be the `\ud` twin, which goes to this destination. */
  uprDest: Dest | undefined;
}

/** Characters of a font table entry's name read at most. */
const FONT_NAME_CHARS = 128;
const plainFormat = (): CharFormat => ({
  bold: false,
  italic: false,
  strike: false,
  sup: false,
  sub: false,
  mono: false,
});
const plainPara = (): ParaProps => ({ style: 0, outline: undefined, ls: 0, ilvl: 0, intbl: false, itap: 1 });

function hexToBase64(hex: string): string {
  let bin = '';
  for (let i = 0; i + 1 < hex.length; i += 2) bin += String.fromCharCode(Number.parseInt(hex.slice(i, i + 2), 16));
  return btoa(bin);
}

export interface ReadOptions {
  signal: AbortSignal;
  /** Keep picture bytes as data URIs (`removeBase64Images: false`). */
  keepImages: boolean;
  warn(message: string): void;
}

export interface ReadResult {
  blocks: Block[];
  metadata: Record<string, string>;
}

export function readRtf(bytes: Uint8Array, opts: ReadOptions): ReadResult {
  const lex = new Lexer(bytes);
  const info: DocInfo = { styles: new Map(), lists: new Map(), metadata: {} };
  const styleDefs: (StyleDef & { id: number })[] = [];
  const fonts = new Map<number, number>();
  /** Fonts of the table in a monospaced face, and the name of the one being defined (to its `;`). */
  const monoFonts = new Set<number>();
  let fontName = '';
  /** Ends the name of the font being defined: at its ';', or where the next font starts without one. */
  const settleFontName = (): void => {
    if (monospacedByName(fontName.trim())) monoFonts.add(defineFont);
    fontName = '';
  };
  const listDefs = new Map<number, ListLevel[]>();
  const overrides = new Map<number, number>();
  let curList: { id: number; levels: ListLevel[] } | undefined;
  let curOverride: { listId: number; ls: number } | undefined;
  let defineFont = 0;
  let docCodepage = 1252;
  let defaultFont = 0;

  const items: Item[] = [];
  const tables = new TableStack((cellItems) => itemsToBlocks(cellItems, info, true));
  let runs: Run[] = [];
  let listText = '';
  let pnBullet = false;
  /** While a footnote group is open: its paragraphs, and the body paragraph it interrupted. */
  let note: { id: string; items: Item[]; runs: Run[]; listText: string; pnBullet: boolean } | undefined;
  const notes: FootnoteDefinition[] = [];

  let st: State = {
    dest: 'body',
    infoKey: '',
    fmt: plainFormat(),
    hidden: false,
    font: -1,
    uc: 1,
    para: plainPara(),
    href: undefined,
    field: undefined,
    pict: undefined,
    nestProps: false,
    owns: undefined,
    style: undefined,
    upr: false,
    uprDest: undefined,
  };
  const stack: State[] = [];
  /** The next control word opens the group (`{\word`), which is where destinations are named. */
  let atGroupStart = false;
  let starred = false;
  let skipChars = 0;
  let pending: number[] = [];
  let pendingCp = 0;

  /** Body characters and, among them, control or replacement characters: binary data posing as RTF. */
  let textChars = 0;
  let badChars = 0;

  const codepage = (): number => {
    const f = st.font >= 0 ? st.font : defaultFont;
    const cp = fonts.get(f) ?? 0;
    return cp || docCodepage;
  };

  const emit = (s: string): void => {
    if (!s) return;
    switch (st.dest) {
      case 'body': {
        if (st.hidden) return;
        // The face is known only now: the default font's where the text names none.
        const mono = monoFonts.has(st.font >= 0 ? st.font : defaultFont);
        if (st.fmt.mono !== mono) st.fmt = { ...st.fmt, mono };
        textChars += s.length;
        badChars += s.match(NOISE)?.length ?? 0;
        const last = runs[runs.length - 1];
        if (last?.kind === 'text' && last.href === st.href && last.fmt === st.fmt) last.text += s;
        else runs.push({ kind: 'text', text: s, fmt: st.fmt, href: st.href });
        return;
      }
      case 'fonttbl': {
        const end = s.indexOf(';');
        if (fontName.length < FONT_NAME_CHARS) fontName += end < 0 ? s : s.slice(0, end);
        if (end >= 0) settleFontName();
        return;
      }
      case 'fldinst':
        if (st.field && st.field.instr.length < 4096) st.field.instr += s;
        return;
      case 'stylesheet':
        if (st.style && st.style.name.length < 256) st.style.name += s;
        return;
      case 'infoField':
        if ((info.metadata[st.infoKey]?.length ?? 0) < 4096)
          info.metadata[st.infoKey] = (info.metadata[st.infoKey] ?? '') + s;
        return;
      case 'listtext':
        if (listText.length < 64) listText += s;
        return;
      case 'pict': {
        const p = st.pict;
        if (!p || !opts.keepImages || p.hexLength > MAX_PICT_HEX) return;
        const hex = s.replace(/[^0-9a-fA-F]/g, '');
        p.hex.push(hex);
        p.hexLength += hex.length;
        return;
      }
      default:
        return;
    }
  };

  const flush = (): void => {
    if (!pending.length) return;
    const bytesOut = Uint8Array.from(pending);
    pending = [];
    // Pictures and skipped groups only need ASCII; decoding them through ICU would be wasted work.
    if (st.dest === 'skip') return;
    emit(decodeBytes(st.dest === 'pict' ? 1252 : pendingCp, bytesOut));
  };

  const pushByte = (b: number): void => {
    if (skipChars > 0) {
      skipChars--;
      return;
    }
    if (st.dest === 'skip' || (st.dest === 'pict' && !opts.keepImages)) return;
    const cp = codepage();
    if (pending.length && cp !== pendingCp) flush();
    pendingCp = cp;
    pending.push(b);
    // Double-byte text is flushed less often so that a character is rarely split between chunks.
    if (pending.length >= (lex.lead === 'none' || st.dest === 'pict' ? 8192 : 1 << 20)) flush();
  };

  const endParagraph = (minLevel: number): void => {
    flush();
    const props = { ...st.para };
    const level = Math.max(minLevel, props.intbl ? Math.max(1, props.itap) : 0);
    const para: Item = { type: 'para', runs, props, listText, pnBullet };
    runs = [];
    listText = '';
    if (note) note.items.push(para);
    else if (level === 0) {
      const t = tables.closeAll();
      if (t) items.push(t);
      items.push(para);
    } else tables.add(para, level);
  };

  const tableLevel = (): number => (st.nestProps ? Math.max(2, st.para.itap) : 1);

  const startDest = (word: string): boolean => {
    switch (word) {
      case 'fonttbl':
        st.dest = 'fonttbl';
        return true;
      case 'stylesheet':
        st.dest = 'stylesheet';
        return true;
      case 'info':
        st.dest = 'info';
        return true;
      case 'fldinst':
        st.dest = 'fldinst';
        return true;
      case 'fldrslt':
        if (st.field) st.href = hyperlinkOf(st.field.instr) ?? st.href;
        return true;
      case 'listtext':
      case 'pntext':
        st.dest = st.dest === 'body' ? 'listtext' : 'skip';
        return true;
      case 'pn':
        st.dest = 'skip';
        return true;
      case 'pict':
        if (st.dest !== 'body') {
          st.dest = 'skip';
          return true;
        }
        st.dest = 'pict';
        st.pict = { mime: undefined, hex: [], hexLength: 0 };
        st.owns = 'pict';
        return true;
      case 'listtable':
        st.dest = 'listtable';
        return true;
      case 'listoverridetable':
        st.dest = 'listoverride';
        return true;
      case 'footnote':
        if (st.dest !== 'body' || note || notes.length >= MAX_NOTES) {
          st.dest = 'skip';
          return true;
        }
        flush();
        note = { id: String(notes.length + 1), items: [], runs, listText, pnBullet };
        if (!st.hidden) runs.push({ kind: 'note', id: note.id });
        note.runs = runs;
        runs = [];
        listText = '';
        st.owns = 'note';
        return true;
      case 'nesttableprops':
        st.nestProps = true;
        return true;
      case 'field':
        st.field = { instr: '' };
        return true;
      case 'shpinst':
        st.dest = st.dest === 'body' ? 'shape' : 'skip';
        return true;
      case 'shptxt':
        if (st.dest === 'shape') st.dest = 'body';
        return true;
      case 'sp':
        st.dest = 'skip';
        return true;
      case 'upr':
        st.upr = true;
        return true;
      case 'ud':
        if (st.uprDest) st.dest = st.uprDest;
        return true;
      case 'shppict':
      case 'shprslt':
        return true;
      default:
        if (st.dest === 'info' && INFO_KEYS[word]) {
          st.dest = 'infoField';
          st.infoKey = INFO_KEYS[word] as string;
          return true;
        }
        if (SKIPPED.has(word)) {
          st.dest = 'skip';
          return true;
        }
        return false;
    }
  };

  const finishGroup = (closed: State): void => {
    if (closed.owns === 'note' && note) {
      if (runs.length) endParagraph(0);
      const { id, items: noteItems } = note;
      runs = note.runs;
      listText = note.listText;
      pnBullet = note.pnBullet;
      note = undefined;
      notes.push({ type: 'footnoteDefinition', identifier: id, children: itemsToBlocks(noteItems, info, true) });
      return;
    }
    if (closed.owns === 'pict' && closed.pict && st.dest === 'body' && !st.hidden) {
      const p = closed.pict;
      const fields: { url?: string; ref?: string; mime?: string } = { ref: 'pict' };
      if (p.mime) fields.mime = p.mime;
      if (opts.keepImages && p.hexLength > 0 && p.hexLength <= MAX_PICT_HEX && p.mime && /png|jpeg/.test(p.mime)) {
        fields.url = `data:${p.mime};base64,${hexToBase64(p.hex.join(''))}`;
        delete fields.ref;
      }
      runs.push({ kind: 'image', image: image('', fields), href: st.href });
    }
  };

  const controlWord = (word: string, param: number | undefined): void => {
    const on = param === undefined || param !== 0;
    if (atGroupStart || starred) {
      const wasStar = starred;
      atGroupStart = false;
      starred = false;
      if (startDest(word)) return;
      if (wasStar) {
        st.dest = 'skip';
        return;
      }
    } else if (startDest(word)) return;
    if (st.dest === 'skip') {
      if (word === 'bin' && param) lex.skip(param);
      // Old-style numbering says "bullet" inside its otherwise ignored {\*\pn …} group.
      else if (word === 'pnlvlblt') pnBullet = true;
      return;
    }
    if (word === 'uc') {
      if (param !== undefined && param >= 0 && param <= 10) st.uc = param;
      return;
    }
    if (word === 'u') {
      if (param !== undefined) {
        const unit = param < 0 ? param + 65536 : param;
        if (unit >= 0 && unit <= 0xffff) emit(String.fromCharCode(unit));
        skipChars = st.uc;
      }
      return;
    }
    switch (st.dest) {
      case 'fonttbl':
        if (word === 'f' && param !== undefined) {
          settleFontName();
          defineFont = param;
          monoFonts.delete(param);
        } else if (word === 'fcharset' && param !== undefined) {
          const cp = charsetCodepage(param);
          if (cp || !fonts.has(defineFont)) fonts.set(defineFont, cp);
        } else if (word === 'cpg' && param !== undefined) fonts.set(defineFont, param);
        return;
      case 'stylesheet':
        if (!st.style) return;
        if (word === 's' && param !== undefined) st.style.id = param;
        else if (word === 'outlinelevel' && param !== undefined) st.style.outline = param;
        else if (word === 'cs' || word === 'ds' || word === 'ts') st.style.id = -1;
        return;
      case 'listtable':
        if (word === 'list') {
          curList = { id: 0, levels: [] };
        } else if (word === 'listlevel' && curList && curList.levels.length < 9) {
          curList.levels.push({ ordered: true, start: 1 });
        } else if ((word === 'levelnfc' || word === 'levelnfcn') && curList && param !== undefined) {
          const lvl = curList.levels[curList.levels.length - 1];
          if (lvl) lvl.ordered = param !== 23 && param !== 255;
        } else if (word === 'levelstartat' && curList && param !== undefined) {
          const lvl = curList.levels[curList.levels.length - 1];
          if (lvl) lvl.start = param;
        } else if (word === 'listid' && curList && param !== undefined) {
          curList.id = param;
          listDefs.set(param, curList.levels);
        }
        return;
      case 'listoverride':
        if (word === 'listoverride') curOverride = { listId: 0, ls: 0 };
        else if (word === 'listid' && curOverride && param !== undefined) curOverride.listId = param;
        else if (word === 'ls' && curOverride && param !== undefined) {
          curOverride.ls = param;
          overrides.set(param, curOverride.listId);
        }
        return;
      case 'pict':
        if (PICT_MIME[word] && st.pict) st.pict.mime = PICT_MIME[word];
        else if (word === 'bin' && param) {
          const raw = lex.take(param);
          if (st.pict && opts.keepImages) {
            let hex = '';
            for (const b of raw) hex += b.toString(16).padStart(2, '0');
            st.pict.hex.push(hex);
            st.pict.hexLength += hex.length;
          }
        }
        return;
      default:
        break;
    }
    // Structure marks only count in the body (a \par inside a field instruction means nothing).
    if (st.dest !== 'body' && STRUCTURE.has(word)) return;
    switch (word) {
      case 'rtf':
      case 'ansi':
        return;
      case 'ansicpg':
        if (param && param > 0) docCodepage = param;
        return;
      case 'mac':
        docCodepage = 10000;
        return;
      case 'pc':
        docCodepage = 437;
        return;
      case 'pca':
        docCodepage = 850;
        return;
      case 'deff':
        if (param !== undefined) defaultFont = param;
        return;
      case 'f':
        if (param !== undefined) st.font = param;
        return;
      case 'par':
      case 'sect':
        endParagraph(0);
        return;
      case 'line':
        if (st.dest === 'body' && !st.hidden) runs.push({ kind: 'break' });
        return;
      case 'cell':
      case 'nestcell':
        endParagraph(word === 'cell' ? 1 : 2);
        // A table inside a footnote is read as plain paragraphs.
        if (!note) tables.cellEnd(word === 'cell' ? 1 : Math.max(2, st.para.itap));
        return;
      default:
        break;
    }
    if (note && TABLE_MARKS.has(word)) return;
    switch (word) {
      case 'row':
        tables.rowEnd(1);
        return;
      case 'nestrow':
        tables.rowEnd(Math.max(2, st.para.itap));
        return;
      case 'trowd':
        tables.rowDefs(tableLevel());
        return;
      case 'cellx':
        tables.cellDef(tableLevel());
        return;
      case 'clmgf':
      case 'clmrg':
      case 'clvmgf':
      case 'clvmrg':
        tables.merge(word);
        return;
      case 'pard':
        st.para = plainPara();
        pnBullet = false;
        return;
      case 'plain':
        st.fmt = plainFormat();
        st.hidden = false;
        st.font = -1;
        return;
      case 's':
        if (param !== undefined) st.para = { ...st.para, style: param };
        return;
      case 'outlinelevel':
        if (param !== undefined) st.para = { ...st.para, outline: param };
        return;
      case 'ls':
        if (param !== undefined) st.para = { ...st.para, ls: param };
        return;
      case 'ilvl':
        if (param !== undefined) st.para = { ...st.para, ilvl: param };
        return;
      case 'intbl':
        st.para = { ...st.para, intbl: true };
        return;
      case 'itap':
        if (param !== undefined) st.para = { ...st.para, itap: param, intbl: param > 0 };
        return;
      case 'pnlvlblt':
        pnBullet = true;
        return;
      case 'b':
        st.fmt = { ...st.fmt, bold: on };
        return;
      case 'i':
        st.fmt = { ...st.fmt, italic: on };
        return;
      case 'strike':
      case 'striked':
        st.fmt = { ...st.fmt, strike: on };
        return;
      case 'super':
        st.fmt = { ...st.fmt, sup: on, sub: false };
        return;
      case 'sub':
        st.fmt = { ...st.fmt, sub: on, sup: false };
        return;
      case 'nosupersub':
        st.fmt = { ...st.fmt, sub: false, sup: false };
        return;
      case 'v':
        st.hidden = on;
        return;
      case 'bin':
        if (param) lex.skip(param);
        return;
      default: {
        const ch = SPECIAL[word];
        if (ch !== undefined) emit(ch);
      }
    }
  };

  const controlSymbol = (ch: string): void => {
    if (ch === '*') {
      starred = true;
      return;
    }
    if (skipChars > 0) {
      skipChars--;
      return;
    }
    flush();
    if (ch === '~') emit('\u00a0');
    else if (ch === '_') emit('\u2011');
  };

  let count = 0;
  for (;;) {
    if (++count % CHECK_EVERY === 0) throwIfAborted(opts.signal);
    const cp = codepage();
    lex.lead = cp === 932 ? 'sjis' : cp === 936 || cp === 949 || cp === 950 ? 'wide' : 'none';
    const tok = lex.next();
    if (tok.t === 'eof') break;
    if (tok.t === 'byte') {
      atGroupStart = false;
      pushByte(tok.b);
      continue;
    }
    if (tok.t === 'text') {
      atGroupStart = false;
      for (let i = tok.from; i < tok.to; i++) pushByte(bytes[i] as number);
      continue;
    }
    flush();
    if (tok.t === 'open') {
      if (stack.length >= MAX_GROUP_DEPTH)
        throw badInput(`The RTF groups are nested more than ${MAX_GROUP_DEPTH} levels deep: damaged or hostile file.`);
      stack.push(st);
      const inUpr = st.upr;
      st = { ...st, owns: undefined, upr: false, uprDest: inUpr ? st.dest : undefined };
      if (inUpr) st.dest = 'skip';
      if (st.dest === 'stylesheet' && !st.style) {
        st.style = { id: 0, name: '', outline: undefined };
        styleDefs.push(st.style);
      }
      atGroupStart = true;
      starred = false;
      skipChars = 0;
      continue;
    }
    if (tok.t === 'close') {
      const closed = st;
      const parent = stack.pop();
      if (!parent) break; // the document's own closing brace (anything after it is not RTF)
      st = parent;
      finishGroup(closed);
      atGroupStart = false;
      starred = false;
      skipChars = 0;
      continue;
    }
    if (tok.t === 'word') {
      if (skipChars > 0 && tok.word !== 'u' && st.dest !== 'skip') {
        skipChars--;
        continue;
      }
      controlWord(tok.word, tok.param);
      continue;
    }
    atGroupStart = false;
    controlSymbol(tok.ch);
  }
  flush();
  if (stack.length > 0)
    opts.warn('The RTF file ends before all its groups are closed (truncated?); kept what was read.');
  // A note cut off by the end of the file still keeps what it had.
  if (note) finishGroup({ ...st, owns: 'note' });
  // Text after the last \par is still a paragraph.
  if (runs.length || listText) endParagraph(0);
  const t = tables.closeAll();
  if (t) items.push(t);

  for (const s of styleDefs) {
    if (s.id < 0 || info.styles.has(s.id)) continue;
    info.styles.set(s.id, { name: s.name.replace(/;\s*$/, '').trim(), outline: s.outline });
  }
  for (const [ls, listId] of overrides) {
    const levels = listDefs.get(listId);
    if (levels) info.lists.set(ls, levels);
  }
  if (textChars > 64 && badChars > textChars * MAX_NOISE_SHARE)
    throw badInput('The RTF text is mostly binary data: the file is damaged or not really RTF.');
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(info.metadata)) {
    const clean = v.replace(/\s+/g, ' ').trim();
    if (clean) metadata[k] = clean;
  }
  return { blocks: [...itemsToBlocks(items, info), ...notes], metadata };
}
