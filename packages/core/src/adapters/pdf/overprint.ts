/**
 * Text drawn over a fuller copy of itself. Some producers set a line twice on one baseline in one
 * font: once whole, once with only some of its glyphs (redp5110's figure 3-1: "Specifies that the
 * row permission is to be initially disabled" under "S ifi th t th i i i t b i iti ll di bl d").
 * Read as text, the partial copy is a line of letter fragments, and its first run joins the whole
 * line ("S Specifies …"). Such a copy is dropped: a layer of runs (runs of one baseline, font and
 * size drawn left to right) lying within another layer's extent whose letters it holds in order,
 * and fewer of them. An exact copy (fake bold, drawn twice with a small offset) holds as many
 * letters and is left to the line code, which keeps one copy and calls it bold.
 */
import type { TextItem } from './model.ts';

/** How far back a run may start over the run before it and still go on its layer (kerning). */
const OVERLAP = 1;
/** How far a layer may stand out of the layer it lies on, either side. */
const EDGE = 1;

/**
 * Most layers of one baseline compared, pair by pair: a copy makes two. Right-to-left runs drawn
 * in reading order make a layer each, and thousands on a line would make the pairs quadratic.
 */
const MAX_LAYERS = 16;

/** Runs of one baseline, font and size drawn one after another from left to right. */
interface Layer {
  runs: number[];
  x0: number;
  x1: number;
}

/** The page's runs without partial copies drawn over fuller ones; the same array when there are none. */
export function dropOverprints(items: TextItem[]): TextItem[] {
  if (!mayOverprint(items)) return items;
  const drop = new Set<number>();
  for (const layers of layersByLine(items).values()) {
    if (layers.length > MAX_LAYERS) continue;
    for (const a of layers) {
      for (const b of layers) {
        if (a !== b && liesOn(a, b, items)) {
          for (const i of a.runs) drop.add(i);
          break;
        }
      }
    }
  }
  if (!drop.size) return items;
  const out: TextItem[] = [];
  for (let i = 0; i < items.length; i++) if (!drop.has(i)) out.push(items[i] as TextItem);
  return out;
}

/** The baseline, font and size a run is set on, as one key. */
const lineKey = (it: TextItem): string => `${Math.round((it.y + it.h) * 2)}|${tenths(it.size)}|${it.fontId}`;

/** A size to a tenth of a point, as runs of one size are told apart. */
const tenths = (size: number): number => Math.round(size * 10);

/**
 * Whether a run starts back left of the end of the last run drawn on its baseline, in the same
 * font and size (a second layer): without one there are no layers to compare, and most pages have
 * none. Keyed by the baseline only, so the test makes no string per run; a run in another font
 * between the two copies hides them from it, which only leaves a copy in place.
 */
function mayOverprint(items: TextItem[]): boolean {
  const last = new Map<number, TextItem>();
  for (const it of items) {
    if (it.rotated || it.dir === 'ttb') continue;
    const key = Math.round((it.y + it.h) * 2);
    const before = last.get(key);
    if (
      before &&
      before.fontId === it.fontId &&
      tenths(before.size) === tenths(it.size) &&
      it.x < before.x + before.w - OVERLAP
    )
      return true;
    last.set(key, it);
  }
  return false;
}

/** Each baseline's layers, in drawing order. */
function layersByLine(items: TextItem[]): Map<string, Layer[]> {
  const lines = new Map<string, Layer[]>();
  for (let i = 0; i < items.length; i++) {
    const it = items[i] as TextItem;
    if (it.rotated || it.dir === 'ttb' || !it.str.trim()) continue;
    const key = lineKey(it);
    let layers = lines.get(key);
    if (!layers) {
      layers = [];
      lines.set(key, layers);
    }
    const layer = layers[layers.length - 1];
    const x1 = it.x + it.w;
    if (layer && it.x >= layer.x1 - OVERLAP) {
      layer.runs.push(i);
      layer.x1 = Math.max(layer.x1, x1);
    } else layers.push({ runs: [i], x0: it.x, x1 });
  }
  return lines;
}

/**
 * Whether layer `a` is a partial copy of the part of `b` it lies over: each of its runs starts
 * on its own first letter in a run of `b` (`startsOn`), and its letters are, in order, fewer than
 * those of the part of `b` it lies over. Runs of
 * `b` only touching `a` are not counted: a fake-bold word's second copy at a line's end would
 * otherwise lie on the word and its neighbour, and lose the bold the line code gives it.
 */
function liesOn(a: Layer, b: Layer, items: TextItem[]): boolean {
  if (a.x0 < b.x0 - EDGE || a.x1 > b.x1 + EDGE) return false;
  let mine = '';
  for (const i of a.runs) {
    const r = items[i] as TextItem;
    if (!b.runs.some((j) => startsOn(items[j] as TextItem, r))) return false;
    mine += letters(r.str);
  }
  if (mine.length < 2) return false;
  let under = '';
  for (const j of b.runs) under += letters(partWithin(items[j] as TextItem, a.x0, a.x1));
  return mine.length < under.length && inOrderWithin(mine, under);
}

const letters = (s: string): string => s.replace(/\s+/g, '');

/**
 * Whether run `r` starts inside run `u` where `u` holds `r`'s first letter: where along `u` its
 * start falls is read as a share of `u`'s characters, within `NEAR` of them either way (glyphs
 * differ in width). PDFium parts the whole copy where the partial one has glyphs, and `r` starts
 * with a run of `u`; pdf.js keeps it as one run, and `r` starts inside it.
 */
function startsOn(u: TextItem, r: TextItem): boolean {
  if (r.x < u.x - 0.5 || r.x >= u.x + u.w) return false;
  const k = Math.round(((r.x - u.x) / u.w) * u.str.length);
  return u.str.slice(Math.max(0, k - NEAR), k + NEAR + 1).includes(letters(r.str).charAt(0));
}

/** How many characters off a share of a run's width may point (`startsOn`). */
const NEAR = 3;

/**
 * The characters of run `u` that lie between `x0` and `x1`, as shares of its width; none where
 * less than half a character's width of it does (a neighbour the range only touches).
 */
function partWithin(u: TextItem, x0: number, x1: number): string {
  const n = u.str.length;
  const from = Math.max(x0, u.x);
  const to = Math.min(x1, u.x + u.w);
  if (!n || !(u.w > 0) || to - from < u.w / n / 2) return '';
  return u.str.slice(Math.floor(((from - u.x) / u.w) * n), Math.ceil(((to - u.x) / u.w) * n));
}

/** Whether every character of `a` occurs in `b`, in the same order. */
function inOrderWithin(a: string, b: string): boolean {
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    j = b.indexOf(a[i] as string, j);
    if (j < 0) return false;
    j++;
  }
  return true;
}
