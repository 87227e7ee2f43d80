import { badInput, throwIfAborted } from '../../errors.ts';
import * as b from '../../tree/build.ts';
import type { Block, DocumentMetadata } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { Bytes } from '../cfb/bytes.ts';
import { openCfb } from '../cfb/index.ts';
import { readSummary } from '../cfb/summary.ts';
import type { AdapterContext, AdapterOutput } from '../types.ts';
import { slideBlocks } from './blocks.ts';
import { decryptPpt } from './decrypt.ts';
import { encryptedDamaged, type Persist, readPersist } from './persist.ts';
import { pictureResolver } from './pictures.ts';
import { children, type Rec, RT, recordAt } from './records.ts';
import { type Item, readDrawing } from './shapes.ts';
import { readTextBox, type TextBox } from './text.ts';

interface SlideRef {
  persistId: number;
  slideId: number;
  /** Placeholder texts stored in SlideListWithText, indexed as OutlineTextRefAtoms refer to them. */
  texts: TextBox[];
}

/** Slide entries of one SlideListWithTextContainer ([MS-PPT] 2.4.14.3). */
function readSlideList(s: Bytes, list: Rec): SlideRef[] {
  const out: SlideRef[] = [];
  let current: SlideRef | undefined;
  let group: Rec[] = [];
  const closeGroup = (): void => {
    const header = group[0];
    if (current && header) {
      const box = readTextBox(s, group, header.end - header.body >= 4 ? s.u32(header.body) : 4);
      if (box) current.texts.push(box);
    }
    group = [];
  };
  for (const r of children(s, list.body, list.end)) {
    if (r.type === RT.slidePersist && r.end - r.body >= 16) {
      closeGroup();
      current = { persistId: s.u32(r.body), slideId: s.u32(r.body + 12), texts: [] };
      out.push(current);
    } else if (r.type === RT.textHeader) {
      closeGroup();
      group.push(r);
    } else if (group.length) group.push(r);
  }
  closeGroup();
  return out;
}

function containerAt(s: Bytes, offset: number | undefined, type: number): Rec | undefined {
  if (offset === undefined) return undefined;
  const r = recordAt(s, offset, s.length);
  return r && r.type === type ? r : undefined;
}

/** Notes pages also hold the slide image and field placeholders ("*" stands for a field). */
const isNoteText = (it: Item): boolean =>
  it.kind === 'text' && it.box.paras.some((p) => p.lines.some((l) => l !== '' && l !== '*'));

/**
 * Reading order: rows top to bottom, each row left to right. Boxes whose tops lie within 2.5% of the
 * slide height of the row's first box share the row (side-by-side columns are rarely aligned exactly).
 * Items without a position keep their drawing order at the end.
 */
function readingOrder(items: Item[], slideHeight: number): Item[] {
  const placed = items.map((it, i) => ({ it, i })).filter((x) => x.it.rect);
  const loose = items.filter((it) => !it.rect);
  placed.sort((x, y) => (x.it.rect?.top ?? 0) - (y.it.rect?.top ?? 0) || x.i - y.i);
  const tolerance = slideHeight * 0.025;
  const out: Item[] = [];
  let row: typeof placed = [];
  const flush = (): void => {
    row.sort((x, y) => (x.it.rect?.left ?? 0) - (y.it.rect?.left ?? 0) || x.i - y.i);
    append(
      out,
      row.map((x) => x.it),
    );
    row = [];
  };
  for (const x of placed) {
    const first = row[0];
    if (first && (x.it.rect?.top ?? 0) - (first.it.rect?.top ?? 0) > tolerance) flush();
    row.push(x);
  }
  flush();
  return [...out, ...loose];
}

/** Slide height in master units from the DocumentAtom; 7.5 inches when absent. */
function slideHeightOf(s: Bytes, doc: Rec | undefined): number {
  const atom = doc && children(s, doc.body, doc.end).find((r) => r.type === RT.documentAtom);
  const h = atom && atom.end - atom.body >= 8 ? s.i32(atom.body + 4) : 0;
  return h > 0 ? h : 4320;
}

/** Blocks of every slide, in presentation order. */
export function readPresentation(
  s: Bytes,
  persist: Persist | undefined,
  pictures: Bytes | undefined,
  ctx: AdapterContext,
): Block[][] {
  const doc = persist ? containerAt(s, persist.offsets.get(persist.docPersistId), RT.document) : undefined;
  const slides: Block[][] = [];
  const picture = pictureResolver(
    s,
    doc ?? children(s, 0, s.length).find((r) => r.type === RT.document),
    pictures,
    ctx,
  );
  if (persist && doc) {
    const height = slideHeightOf(s, doc);
    const lists = children(s, doc.body, doc.end).filter((r) => r.type === RT.slideListWithText);
    const slideList = lists.find((r) => r.instance === 0);
    const notesList = lists.find((r) => r.instance === 2);
    const notesById = new Map<number, number>();
    if (notesList) for (const n of readSlideList(s, notesList)) notesById.set(n.slideId, n.persistId);
    const seen = new Set<number>();
    const refs = slideList ? readSlideList(s, slideList) : [];
    for (const [i, ref] of refs.entries()) {
      ctx.progress?.(i, refs.length, 'slides');
      throwIfAborted(ctx.signal);
      // A slide listed twice is a damaged or crafted list; real files name each slide once.
      if (seen.has(ref.persistId)) continue;
      seen.add(ref.persistId);
      const slide = containerAt(s, persist.offsets.get(ref.persistId), RT.slide);
      let items: Item[] = slide ? readDrawing(s, slide, ref.texts) : [];
      if (!items.length) items = ref.texts.map((box) => ({ kind: 'text', box, rect: undefined }));
      let notes: Item[] = [];
      const atom = slide && children(s, slide.body, slide.end).find((r) => r.type === RT.slideAtom);
      if (atom && atom.end - atom.body >= 20) {
        const notesRec = containerAt(s, persist.offsets.get(notesById.get(s.u32(atom.body + 16)) ?? -1), RT.notes);
        if (notesRec) notes = readDrawing(s, notesRec, []).filter(isNoteText);
      }
      slides.push(slideBlocks(slides.length + 1, readingOrder(items, height), notes, picture));
    }
    ctx.progress?.(refs.length, refs.length, 'slides');
    return slides;
  }
  // No usable persist directory: take the slide containers in stream order.
  ctx.warn('The presentation index is damaged; slides were recovered in storage order.');
  for (const r of children(s, 0, s.length)) {
    throwIfAborted(ctx.signal);
    if (r.type === RT.cryptSession) throw encryptedDamaged();
    if (r.type === RT.slide)
      slides.push(slideBlocks(slides.length + 1, readingOrder(readDrawing(s, r, []), 4320), [], picture));
  }
  return slides;
}

/** One `slide` section per slide; metadata from SummaryInformation. */
export function readPpt(bytes: Uint8Array, ctx: AdapterContext): AdapterOutput {
  const cfb = openCfb(bytes, ctx.signal);
  let docData = cfb.stream('PowerPoint Document');
  if (!docData) throw badInput('The file is not a PowerPoint presentation (no PowerPoint Document stream).');
  const cu = cfb.stream('Current User');
  let pics = cfb.stream('Pictures');
  throwIfAborted(ctx.signal);
  const persist = readPersist(
    new Bytes(docData, 'PowerPoint document stream'),
    cu && new Bytes(cu, 'Current User stream'),
  );
  if (persist?.cryptSessionId !== undefined) {
    if (persist.cryptSessionId < 0) throw encryptedDamaged();
    ({ doc: docData, pictures: pics } = decryptPpt(docData, pics, persist, ctx.password));
  }
  const slides = readPresentation(
    new Bytes(docData, 'PowerPoint document stream'),
    persist,
    pics ? new Bytes(pics, 'Pictures stream') : undefined,
    ctx,
  );
  const children: Block[] = slides.map((blocks, i) => b.section('slide', i + 1, blocks));
  // An encrypted file without fDocProps keeps its properties in EncryptedSummary: no title then.
  const summary = readSummary(cfb.stream('\x05SummaryInformation'));
  const metadata: DocumentMetadata = { numPages: slides.length };
  if (summary.title) metadata.title = summary.title;
  if (summary.author) metadata.author = summary.author;
  if (summary.keywords) metadata.keywords = summary.keywords;
  if (summary.subject) metadata.description = summary.subject;
  return { tree: b.root(children, metadata) };
}
