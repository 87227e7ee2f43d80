import { tableGrid } from '../tree/grid.ts';
import type { Root } from '../tree/types.ts';
import { blockText, inlineText, walk } from '../tree/walk.ts';

/**
 * Schema-guided JSON without a language model: fills each schema property from "label: value"
 * lines, two-column tables and headings whose text matches the property name. Arrays of objects are
 * filled from tables whose header matches the item properties. Deterministic; anything not found is
 * null, and the result says so in `warning`.
 */
export interface JsonResult {
  json: Record<string, unknown>;
  missing: string[];
}

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; description?: string };

const key = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

function labelVariants(name: string, schema: Schema): string[] {
  const spaced = name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
  const out = [key(name), key(spaced)];
  if (schema.description && schema.description.length < 40) out.push(key(schema.description));
  return [...new Set(out)];
}

function coerce(value: string, schema: Schema): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const v = value.trim();
  if (type === 'number' || type === 'integer') {
    const m = v.replace(/[,\s]/g, '').match(/-?\d+(\.\d+)?/);
    if (!m) return null;
    return type === 'integer' ? Math.round(Number(m[0])) : Number(m[0]);
  }
  if (type === 'boolean') return /^(yes|true|y|1|☒|x)$/i.test(v);
  if (type === 'array') return v.split(/\s*[,;]\s*/).filter(Boolean);
  return v;
}

export function extractJson(tree: Root, schema: Record<string, unknown> | undefined): JsonResult {
  const s = (schema ?? {}) as Schema;
  const props = s.properties ?? {};
  const pairs = new Map<string, string>();
  const tables: string[][][] = [];
  walk(tree, (n) => {
    if (n.type === 'paragraph' || n.type === 'listItem') {
      for (const line of blockText(n).split('\n')) {
        const m = /^\s*([^:]{1,60}):\s*(.+)$/.exec(line);
        if (m?.[1] && m[2] && !pairs.has(key(m[1]))) pairs.set(key(m[1]), m[2]);
      }
      return 'skip';
    }
    if (n.type === 'table') {
      const grid = tableGrid(n).map((r) => r.map((slot) => blockText(slot.cell).trim()));
      tables.push(grid);
      for (const r of grid) if (r.length === 2 && r[0] && r[1] && !pairs.has(key(r[0]))) pairs.set(key(r[0]), r[1]);
      return 'skip';
    }
    if (n.type === 'heading' && !pairs.has('title')) pairs.set('title', inlineText(n.children));
    return undefined;
  });
  if (tree.metadata.title && !pairs.has('title')) pairs.set('title', String(tree.metadata.title));

  const json: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [name, sub] of Object.entries(props)) {
    if (sub.type === 'array' && sub.items?.properties) {
      const itemProps = Object.keys(sub.items.properties);
      const table = tables.find((t) => {
        const head = (t[0] ?? []).map(key);
        return itemProps.some((p) => labelVariants(p, sub.items?.properties?.[p] ?? {}).some((v) => head.includes(v)));
      });
      if (table) {
        const head = (table[0] ?? []).map(key);
        json[name] = table.slice(1).map((r) => {
          const item: Record<string, unknown> = {};
          for (const p of itemProps) {
            const ps = sub.items?.properties?.[p] ?? {};
            const col = head.findIndex((h) => labelVariants(p, ps).includes(h));
            item[p] = col >= 0 && r[col] !== undefined ? coerce(r[col] as string, ps) : null;
          }
          return item;
        });
        continue;
      }
    }
    const found = labelVariants(name, sub)
      .map((v) => pairs.get(v))
      .find((v) => v !== undefined);
    if (found === undefined) {
      json[name] = null;
      missing.push(name);
    } else json[name] = coerce(found, sub);
  }
  return { json, missing };
}
