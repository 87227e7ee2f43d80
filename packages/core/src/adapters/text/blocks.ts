import { throwIfAborted } from '../../errors.ts';
import { paragraph, text } from '../../tree/build.ts';
import type { Block, Inline } from '../../tree/types.ts';

/** Paragraphs made between abort checks. */
const CHECK_EVERY = 4096;

/**
 * Plain text as blocks: a paragraph per run of non-blank lines (form feeds count as blank), each
 * line break kept as a hard break so lists, addresses and log lines keep their shape.
 */
export function plainTextBlocks(value: string, signal?: AbortSignal): Block[] {
  const out: Block[] = [];
  const lines = value.replace(/\r\n?/g, '\n').split('\n');
  let para: Inline[] = [];
  const flush = () => {
    if (!para.length) return;
    out.push(paragraph(para));
    para = [];
    if (out.length % CHECK_EVERY === 0) throwIfAborted(signal);
  };
  for (const raw of lines) {
    const line = raw.replace(/\s+$/, '');
    if (!line || /^\f+$/.test(line)) {
      flush();
      continue;
    }
    if (para.length) para.push({ type: 'break' });
    para.push(text(line.replace(/\f/g, '')));
  }
  flush();
  return out;
}
