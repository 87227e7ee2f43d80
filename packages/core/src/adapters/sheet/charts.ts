import type { Block } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { attr, deep, type XmlElement } from '../../util/xml.ts';
import { chartBlocks, chartSpace } from '../ooxml/chart.ts';
import { type Rel, readRels, relsPartOf } from '../ooxml/opc.ts';

/**
 * Charts drawn on each sheet of an OOXML workbook (worksheets and chart sheets), keyed by sheet name:
 * their title and cached series as small tables, found by walking the package: workbook → sheet part
 * → drawing → chart. `load` parses a part (once: the cell reader reads some of the same).
 */
export async function sheetCharts(
  load: (name: string) => Promise<XmlElement | undefined>,
): Promise<Map<string, Block[]>> {
  const out = new Map<string, Block[]>();
  const rels = async (part: string): Promise<Map<string, Rel>> => {
    const map = new Map<string, Rel>();
    for (const [id, rel] of readRels(await load(relsPartOf(part)), part)) if (!rel.external) map.set(id, rel);
    return map;
  };
  const workbook = await load('xl/workbook.xml');
  if (!workbook) return out;
  const wbRels = await rels('xl/workbook.xml');
  for (const sheet of deep(workbook, 'sheet')) {
    const name = attr(sheet, 'name');
    const part = wbRels.get(attr(sheet, 'r:id') ?? '')?.target;
    if (!name || !part) continue;
    const sheetRels = await rels(part);
    const drawings = [...sheetRels.values()].map((r) => r.target).filter((t) => /\/drawings\/[^/]+\.xml$/i.test(t));
    const blocks: Block[] = [];
    // The worksheet part itself can be huge; its drawing relationships say all we need.
    for (const drawingPart of drawings) {
      const drawingRels = await rels(drawingPart);
      // A drawing that relates to no chart (`chart`, `chartEx`: only pictures, shapes) holds none,
      // so it is not read.
      if (![...drawingRels.values()].some((r) => r.type.startsWith('chart'))) continue;
      for (const c of deep(await load(drawingPart), 'chart')) {
        const chartPart = drawingRels.get(attr(c, 'r:id') ?? '')?.target;
        if (chartPart) append(blocks, chartBlocks(chartSpace(await load(chartPart))));
      }
    }
    if (blocks.length) out.set(name, blocks);
  }
  return out;
}
