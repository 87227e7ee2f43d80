import { badInput, throwIfAborted } from '../../errors.ts';
import * as b from '../../tree/build.ts';
import type { Block, DocumentMetadata, Image } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { Bytes } from '../cfb/bytes.ts';
import { openCfb } from '../cfb/index.ts';
import { dataUri } from '../cfb/officeart.ts';
import { readSummary } from '../cfb/summary.ts';
import type { AdapterContext, AdapterOutput } from '../types.ts';
import { buildBlocks } from './blocks.ts';
import { readChpx } from './chpx.ts';
import { decryptDoc } from './decrypt.ts';
import { FC, readFib } from './fib.ts';
import { readLists } from './lists.ts';
import { readNotes } from './notes.ts';
import { readPapx } from './papx.ts';
import { readPicture } from './pictures.ts';
import { readText } from './pieces.ts';
import { type RawPara, scanStory } from './story.ts';
import { readStyles } from './styles.ts';
import { readTextboxes, type Textboxes } from './textboxes.ts';

/** Main text, then footnotes and endnotes as definitions; metadata from SummaryInformation. */
export function readDoc(bytes: Uint8Array, ctx: AdapterContext): AdapterOutput {
  const cfb = openCfb(bytes, ctx.signal);
  const stored = cfb.stream('WordDocument');
  if (!stored) throw badInput('The file is not a Word document (no WordDocument stream).');
  // An encrypted file says which table stream it has before it is decrypted; the flag stays put.
  const streams = decryptDoc(
    {
      word: stored,
      table: cfb.stream(stored.length > 0x0b && (stored[0x0b] as number) & 0x02 ? '1Table' : '0Table'),
      data: cfb.stream('Data'),
    },
    ctx.password,
  );
  const word = new Bytes(streams.word, 'Word document stream');
  const fib = readFib(word);
  const tableData = fib.tableStream === 'WordDocument' ? streams.word : streams.table;
  if (!tableData) throw badInput(`The Word document is damaged (no ${fib.tableStream} stream).`);
  const table = new Bytes(tableData, 'Word table stream');
  throwIfAborted(ctx.signal);

  const text = readText(word, table, fib);
  const styles = readStyles(table, fib);
  const papx = readPapx(word, table, fib, styles, ctx.signal);
  const lists = readLists(table, fib);
  const chpx = readChpx(word, table, fib, ctx.signal);
  const charAt = (cp: number) => chpx(text.fcOf(cp));
  const propsAt = (cp: number) => {
    const fc = text.fcOf(cp);
    return fc < 0 ? undefined : papx.at(fc);
  };

  const mainEnd = Math.min(fib.ccpText, text.text.length);
  const ftnStart = mainEnd;
  const ednStart = fib.ccpText + fib.ccpFtn + fib.ccpHdd + fib.ccpAtn;
  const stories = [
    readNotes(table, fib, FC.plcffndRef, FC.plcffndTxt, ftnStart, fib.ccpFtn),
    readNotes(table, fib, FC.plcfendRef, FC.plcfendTxt, ednStart, fib.ccpEdn),
  ];
  // Footnotes are numbered first, endnotes continue the sequence.
  const noteNumbers = new Map<number, number>();
  const noteRanges: [number, number][] = [];
  for (const st of stories) {
    st.refs.forEach((cp, i) => {
      noteRanges.push(st.ranges[i] as [number, number]);
      noteNumbers.set(cp, noteRanges.length);
    });
  }
  const dataStream = streams.data;
  const data = dataStream ? new Bytes(dataStream, 'Word data stream') : undefined;
  const picture = (pic: number | undefined): Image => {
    const ref = pic === undefined ? 'Data' : `Data#${pic}`;
    const found = pic === undefined ? undefined : readPicture(data, pic);
    const node = b.image('', { ref });
    if (found) {
      node.mime = found.mime;
      // Kept as a data URI only when the caller keeps base64 images; large ones stay references.
      const url = ctx.options.removeBase64Images ? undefined : dataUri(found);
      if (url) node.url = url;
    }
    return node;
  };
  const bctx = { styles, lists, noteAt: (cp: number) => noteNumbers.get(cp), picture };
  const boxes = readTextboxes(table, fib, ednStart + fib.ccpEdn, fib.ccpTxbx);
  const placer = textboxPlacer(boxes, (from, to) => scanStory(text.text, from, to, propsAt, charAt, ctx.signal));
  const mainParas = scanStory(text.text, 0, mainEnd, propsAt, charAt, ctx.signal, placer.at);
  append(mainParas, placer.rest());
  const children: Block[] = buildBlocks(mainParas, bctx);

  const noteCtx = { ...bctx, noteAt: () => undefined };
  noteRanges.forEach(([from, to], i) => {
    throwIfAborted(ctx.signal);
    const body = buildBlocks(scanStory(text.text, from, to, propsAt, charAt, ctx.signal), noteCtx);
    children.push({ type: 'footnoteDefinition', identifier: String(i + 1), children: body });
  });

  const summary = readSummary(cfb.stream('\x05SummaryInformation'));
  const metadata: DocumentMetadata = {};
  if (summary.title) metadata.title = summary.title;
  if (summary.author) metadata.author = summary.author;
  if (summary.keywords) metadata.keywords = summary.keywords;
  if (summary.subject) metadata.description = summary.subject;
  return { tree: b.root(children, metadata) };
}

/**
 * Text box stories for the drawing anchors met in the main text. A story whose shape is anchored
 * directly goes there; stories of shapes inside groups (not anchored themselves) go with the next
 * group anchor, in story order; whatever is left ends the body.
 */
function textboxPlacer(boxes: Textboxes, scan: (from: number, to: number) => RawPara[]) {
  const anchored = new Set(boxes.anchorAt.values());
  const indexOf = new Map<number, number>();
  boxes.stories.forEach((s, i) => {
    if (!indexOf.has(s.spid)) indexOf.set(s.spid, i);
  });
  const done = new Set<number>();
  let next = 0;
  const take = (i: number, out: RawPara[]): void => {
    const s = boxes.stories[i];
    if (!s || done.has(i)) return;
    done.add(i);
    append(out, scan(s.from, s.to));
  };
  return {
    at(cp: number): RawPara[] {
      const out: RawPara[] = [];
      const spid = boxes.anchorAt.get(cp);
      const k = spid === undefined ? -1 : (indexOf.get(spid) ?? -1);
      if (k >= 0) {
        for (let i = next; i < k; i++) if (!anchored.has((boxes.stories[i] as { spid: number }).spid)) take(i, out);
        take(k, out);
        next = Math.max(next, k + 1);
      } else if (spid !== undefined) {
        while (next < boxes.stories.length && !anchored.has((boxes.stories[next] as { spid: number }).spid))
          take(next++, out);
      }
      return out;
    },
    rest(): RawPara[] {
      const out: RawPara[] = [];
      for (let i = 0; i < boxes.stories.length; i++) take(i, out);
      return out;
    },
  };
}
