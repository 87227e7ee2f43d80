import type { Block } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { attr, deep, type XmlElement } from '../../util/xml.ts';
import { chartBlocks, chartSpace } from '../ooxml/chart.ts';
import { readRels, relsPartOf } from '../ooxml/opc.ts';

/**
 * Charts drawn on each sheet of an OOXML workbook (worksheets and chart sheets), keyed by sheet name:
 * their title and cached series as small tables, found by walking the package: workbook → sheet part
 * → drawing → chart. `load` parses a part (once: the cell reader reads some of the same).
 */
export async function sheetCharts(
  load: (name: string) => Promise<XmlElement | undefined>,
): Promise<Map<string, Block[]>> {
  const out = new Map<string, Block[]>();
  const rels = async (part: string): Promise<Map<string, string>> => {
    const map = new Map<string, string>();
    for (const [id, rel] of readRels(await load(relsPartOf(part)), part)) if (!rel.external) map.set(id, rel.target);
    return map;
  };
  const workbook = await load('xl/workbook.xml');
  if (!workbook) return out;
  const wbRels = await rels('xl/workbook.xml');
  for (const sheet of deep(workbook, 'sheet')) {
    const name = attr(sheet, 'name');
    const part = wbRels.get(attr(sheet, 'r:id') ?? '');
    if (!name || !part) continue;
    const sheetRels = await rels(part);
    const drawings = [...sheetRels.values()].filter((t) => /\/drawings\/[^/]+\.xml$/i.test(t));
    const blocks: Block[] = [];
    // The worksheet part itself can be huge; its drawing relationships say all we need.
    for (const drawingPart of drawings) {
      const drawingRels = await rels(drawingPart);
      for (const c of deep(await load(drawingPart), 'chart')) {
        const chartPart = drawingRels.get(attr(c, 'r:id') ?? '');
        if (chartPart) append(blocks, chartBlocks(chartSpace(await load(chartPart))));
      }
    }
    if (blocks.length) out.set(name, blocks);
  }
  return out;
}
