import type { Block } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { child, elements, type XmlElement } from '../../util/xml.ts';
import { readBlocks } from '../odf/blocks.ts';
import { type ReaderEnv, TOP } from '../odf/env.ts';

const HEADERS = ['style:header-first', 'style:header', 'style:header-left'];
const FOOTERS = ['style:footer-first', 'style:footer', 'style:footer-left'];

/** Text of one kind of page margin across master pages, each distinct text once. */
function collect(masters: XmlElement[], names: string[], env: ReaderEnv): Block[] {
  const out: Block[] = [];
  const seen = new Set<string>();
  for (const master of masters) {
    for (const name of names) {
      const el = child(master, name);
      if (!el || el.attrs['style:display'] === 'false') continue;
      const blocks = readBlocks(el.children, env, TOP);
      const signature = JSON.stringify(blocks);
      if (!blocks.length || seen.has(signature)) continue;
      seen.add(signature);
      append(out, blocks);
    }
  }
  return out;
}

/** Page headers and footers of the master pages (styles.xml). */
export function masterBlocks(styles: XmlElement, env: ReaderEnv): { headers: Block[]; footers: Block[] } {
  const masters = elements(child(styles, 'office:master-styles'), 'style:master-page');
  return { headers: collect(masters, HEADERS, env), footers: collect(masters, FOOTERS, env) };
}
