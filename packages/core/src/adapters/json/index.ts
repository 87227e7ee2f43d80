import { parses } from '../../detect-text.ts';
import { throwIfAborted } from '../../errors.ts';
import { code, root, tableFromMatrix } from '../../tree/build.ts';
import type { Block } from '../../tree/types.ts';
import { decodeTextFile } from '../../util/text-file.ts';
import { MAX_CELLS } from '../csv/index.ts';
import type { Adapter, AdapterContext } from '../types.ts';
import { flatObject, flatRows, reindent } from './tokens.ts';

/**
 * JSON and JSON Lines: a top-level array of flat objects (scalars only) is a table, its columns the
 * keys in the order first seen; anything else is a `json` code block, re-indented with every key and
 * number as written. A file that is not valid JSON is kept as plain code, with a warning.
 */

/** Records as a table, or undefined when they are too many cells (the code block shows them). */
function recordTable(records: [string, string][][], ctx: AdapterContext): Block | undefined {
  const columns = new Map<string, number>();
  for (const r of records) for (const [k] of r) if (!columns.has(k)) columns.set(k, columns.size);
  const width = columns.size;
  if (!width) return undefined;
  let kept = records;
  if ((records.length + 1) * width > MAX_CELLS) {
    kept = records.slice(0, Math.max(0, Math.floor(MAX_CELLS / width) - 1));
    ctx.warn(`The JSON table exceeds ${MAX_CELLS} cells; only the first ${kept.length} records were kept.`);
  }
  const matrix = [[...columns.keys()]];
  for (const r of kept) {
    const line = new Array<string>(width).fill('');
    for (const [k, v] of r) line[columns.get(k) as number] = v.replace(/\r\n?/g, '\n');
    matrix.push(line);
  }
  return tableFromMatrix(matrix, 1);
}

/** JSON Lines: one value per non-blank line, every line valid. */
function jsonLines(text: string): string[] | undefined {
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  if (lines.length < 1 || !lines.every(parses)) return undefined;
  return lines;
}

export const adapter: Adapter = {
  name: 'json',
  kinds: ['json'],
  async parse(bytes, ctx) {
    throwIfAborted(ctx.signal);
    const text = decodeTextFile(bytes, 'JSON text file').text.replace(/^\uFEFF/, '');
    if (!text.trim()) return { tree: root([]) };
    if (parses(text)) {
      const rows = flatRows(text);
      const tableBlock = rows && recordTable(rows, ctx);
      return { tree: root([tableBlock ?? code(reindent(text), 'json')]) };
    }
    throwIfAborted(ctx.signal);
    const lines = jsonLines(text);
    if (lines) {
      const records = lines.map(flatObject);
      const tableBlock = records.every((r) => r !== undefined)
        ? recordTable(records as [string, string][][], ctx)
        : undefined;
      return { tree: root([tableBlock ?? code(lines.map(reindent).join('\n'), 'json')]) };
    }
    ctx.warn('The file is not valid JSON (nor JSON Lines); its text is shown as it is.');
    return { tree: root([code(text)]) };
  },
};
