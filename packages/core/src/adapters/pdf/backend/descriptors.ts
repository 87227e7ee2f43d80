import { weightOfStem } from './font-names.ts';

/**
 * What font descriptors say that pdf.js does not hand over. pdf.js reads a descriptor's flags and
 * stem width in its worker but sends the main thread only a name, and a bold flag taken from the
 * name of a font it does not embed; PDFium's runs are bold by the force-bold flag and by weight
 * too (`boldByFacts`). Descriptors are read here from the file's bytes where they can be seen
 * without decompressing, as `mentionsDingbats` reads font names: those in object streams stay
 * unknown, and such fonts read by name alone.
 */
export interface Described {
  flags: number;
  /** PDFium's weight (`weightOfStem`), -1 without a StemV. */
  weight: number;
}

const KEY = [...'FontDescriptor'].map((c) => c.charCodeAt(0));
const OBJ = [...'obj'].map((c) => c.charCodeAt(0));
const ENDOBJ = [...'endobj'].map((c) => c.charCodeAt(0));
/** How far an object's start and end are looked for around the key: descriptors are short. */
const REACH = 4096;
/** Descriptors read at most: a file naming more is read for its first ones. */
const MAX_DESCRIPTORS = 1000;

const latin1 = new TextDecoder('latin1');

/** Descriptors by font name (subset prefix and all, as pdf.js names the font). */
export function fontDescriptors(bytes: Uint8Array): Map<string, Described> {
  const out = new Map<string, Described>();
  let seen = 0;
  for (let i = bytes.indexOf(KEY[0] as number); i >= 0; i = bytes.indexOf(KEY[0] as number, i + 1)) {
    if (!matches(bytes, KEY, i)) continue;
    if (++seen > MAX_DESCRIPTORS) break;
    const start = findBack(bytes, OBJ, i, Math.max(0, i - REACH));
    const end = findForward(bytes, ENDOBJ, i, Math.min(bytes.length, i + REACH));
    if (start < 0 || end < 0) continue;
    const dict = latin1.decode(bytes.subarray(start, end));
    if (!/\/Type\s*\/FontDescriptor(?![\w#])/.test(dict)) continue;
    const name = /\/FontName\s*\/([^\s/<>[\]()%{}]+)/.exec(dict)?.[1];
    if (!name || out.has(name)) continue;
    const flags = Number(/\/Flags\s+(\d+)/.exec(dict)?.[1] ?? 0);
    const stem = /\/StemV\s+(-?\d+(?:\.\d*)?)/.exec(dict)?.[1];
    out.set(decodeName(name), {
      flags: Number.isFinite(flags) ? flags : 0,
      weight: weightOfStem(stem === undefined ? stem : Number(stem)),
    });
    i = end;
  }
  return out;
}

function matches(bytes: Uint8Array, pattern: number[], at: number): boolean {
  for (let k = 0; k < pattern.length; k++) if (bytes[at + k] !== pattern[k]) return false;
  return true;
}

function findBack(bytes: Uint8Array, pattern: number[], from: number, min: number): number {
  for (let i = from - pattern.length; i >= min; i--) if (matches(bytes, pattern, i)) return i + pattern.length;
  return -1;
}

function findForward(bytes: Uint8Array, pattern: number[], from: number, max: number): number {
  for (let i = from; i + pattern.length <= max; i++) if (matches(bytes, pattern, i)) return i;
  return -1;
}

/** A PDF name's `#xx` escapes. */
function decodeName(name: string): string {
  return name.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}
