import { apply, type Matrix } from '../extract.ts';
import { FIELD_FONT, TEXT_BOX_FONT, type TextItem } from '../model.ts';
import { cleanText } from '../text.ts';
import { boldByName, italicByName } from './font-names.ts';

/**
 * Text boxes (FreeText annotations): what a typewriter tool writes on a page, as viewers show it but
 * outside the page's content, so neither backend's text layer has it. A form filled in with such a
 * tool, or a note like "This page is intentionally left blank", holds its words there only. The
 * annotation's /Contents is the text it shows; its rectangle is where; its /DA string names the font
 * and size. Annotations hidden from view (flags Hidden, NoView) show nothing and give nothing.
 */
export interface TextBox {
  /** The box in PDF user space: two opposite corners. */
  rect: readonly [number, number, number, number];
  contents: string;
  /** The default appearance string (`/Helvetica 12 Tf 0 g`), or ''. */
  da: string;
  /** Its text centred in the box's height, as a one-line form field shows its value; else from the top. */
  middle?: boolean;
  /** A form field's value (`FieldWidget`), not a note. */
  field?: boolean;
}

/**
 * A form field's widget (an AcroForm Widget annotation) as a filled form shows it: the value is in
 * the field, not the page's content, so neither backend's text layer has it. Push buttons,
 * signatures and password fields give none (a viewer masks a password).
 */
export interface FieldWidget {
  /** The widget in PDF user space: two opposite corners. */
  rect: readonly [number, number, number, number];
  /** A text or choice field's value as shown ('' when empty); a box ticked or not. */
  value: string | boolean;
  multiline: boolean;
}

/**
 * Whether a check box or radio button is ticked, read from the widget's state (`/AS`), which is what
 * a viewer draws: on, and for a radio button the group's value (`/V`). pdf.js compares the value with
 * the on-state the appearance names, which PDFium gives only by building the appearance: a file whose
 * state and value disagree may read otherwise there.
 */
export const ticked = (radio: boolean, fieldValue: string, state: string): boolean =>
  state !== '' && state !== 'Off' && (!radio || state === fieldValue);

/** Options of a choice field read at most, for the labels of its chosen ones. */
export const MAX_OPTIONS = 2000;

/**
 * Objects a file may hold at most for its form to be read: PDFium's form reader takes time growing
 * with the square of the fields at one level of a form (14,000: 3 s; 60,000: 90 s), in one call
 * no timeout cuts short. Both backends skip such a form, to read alike.
 */
export const MAX_FORM_OBJECTS = 15_000;

/**
 * About how many objects a file holds, counted up to just past `limit`: those written plainly
 * (`12 0 obj`), object streams, and the objects they pack (their /N), read from the bytes as stored.
 */
export function objectCount(bytes: Uint8Array, limit: number): number {
  let n = 0;
  // "obj" after a blank after a digit: a native search for its letter, the rest compared.
  for (let i = bytes.indexOf(0x6f); i >= 0 && n <= limit; i = bytes.indexOf(0x6f, i + 1)) {
    const digit = (bytes[i - 2] ?? 0) >= 0x30 && (bytes[i - 2] ?? 0) <= 0x39;
    if (digit && bytes[i - 1] === 0x20 && bytes[i + 1] === 0x62 && bytes[i + 2] === 0x6a) n++;
  }
  const tag = [...'/ObjStm'].map((c) => c.charCodeAt(0));
  for (let i = bytes.indexOf(0x2f); i >= 0 && n <= limit; i = bytes.indexOf(0x2f, i + 1)) {
    let k = 1;
    while (k < tag.length && bytes[i + k] === tag[k]) k++;
    if (k < tag.length) continue;
    // The stream's /N in its dictionary, around the tag; the stream itself counts one.
    const around = String.fromCharCode(...bytes.subarray(Math.max(0, i - 256), Math.min(bytes.length, i + 256)));
    n += 1 + Number(/\/N\s+(\d{1,9})/.exec(around)?.[1] ?? 0);
  }
  return n;
}

/** At most this many form widgets are read on a page (a tax form's page holds a few hundred). */
export const MAX_WIDGETS = 2000;
/**
 * The size of a form field's text: a one-line field's as large as its box allows, up to a body
 * text's size (it reads on the line of its label); several lines' a form's usual size.
 */
const LINE_SIZE = 12;
const FIELD_SIZE = 10;
/** A field value longer than this is not read at all (one is shown cut to a text box's length). */
export const MAX_FIELD_CHARS = 1 << 20;
/** What a ticked and an unticked box or radio button read as, as Word's and HTML's check boxes do. */
const TICKED = '\u2612';
const UNTICKED = '\u2610';

/** Form widgets as text boxes: a value where the widget stands, a box's tick as ☒ or ☐. */
export function widgetBoxes(widgets: readonly FieldWidget[]): TextBox[] {
  const out: TextBox[] = [];
  for (const w of widgets.slice(0, MAX_WIDGETS)) {
    const contents = typeof w.value === 'boolean' ? (w.value ? TICKED : UNTICKED) : w.value;
    if (contents.length > MAX_FIELD_CHARS || !contents.trim()) continue;
    // Not the size /DA names, which may sit on a parent field one backend reads and the other does
    // not: a form's usual size, a one-line field's no taller than its box.
    const height = Math.abs((w.rect[3] as number) - (w.rect[1] as number));
    const size = w.multiline ? FIELD_SIZE : Math.max(4, Math.min(LINE_SIZE, height - 2 * INSET));
    out.push({ rect: w.rect, contents, da: `/Helvetica ${size} Tf`, middle: !w.multiline, field: true });
  }
  return out;
}

/** Annotation flags Hidden and NoView (PDF 32000 table 165). */
export const UNSEEN_FLAGS = 2 | 32;
/** At most this many text boxes are read on a page, at most this many characters from each. */
export const MAX_TEXT_BOXES = 200;
const MAX_BOX_TEXT = 4000;
/** Inset of a text box's text from its rectangle, as viewers draw it (a border's width and a margin). */
const INSET = 2;
/** Share of the size an average character is wide, for a box's lines set in a font never loaded. */
const CHAR_WIDTH = 0.5;
const daFont = /\/([^\s/]+)\s+([\d.]+)\s+Tf/;

/**
 * The runs of a page's text boxes, in the page's display space (`frame`: user space to display, as
 * the runs are placed): one run a line of the box's text, from the box's top down at the line pitch
 * of its size. The width of a line is estimated (the box's font is never loaded), never past the box.
 */
export function textBoxItems(boxes: readonly TextBox[], frame: Matrix): TextItem[] {
  const out: TextItem[] = [];
  for (const b of boxes.slice(0, MAX_TEXT_BOXES + MAX_WIDGETS)) {
    const lines = b.contents
      .slice(0, MAX_BOX_TEXT)
      .split(/\r\n|\r|\n/)
      .map((l) => cleanText(l).trim());
    if (!lines.some((l) => l)) continue;
    const [ax, ay, bx, by] = b.rect;
    const [px, py] = apply(frame, ax, ay);
    const [qx, qy] = apply(frame, bx, by);
    const x0 = Math.min(px, qx);
    const y0 = Math.min(py, qy);
    const room = Math.max(0, Math.abs(qx - px) - 2 * INSET);
    const da = daFont.exec(b.da);
    const named = Number(da?.[2]);
    // Size 0 in /DA means "fit the box": the box's height then bounds one line.
    const size = named > 0 ? named : Math.max(4, Math.min(12, Math.abs(qy - py) - 2 * INSET));
    const face = da?.[1] ?? 'Helvetica';
    const font = (b.field ? FIELD_FONT : TEXT_BOX_FONT) + face;
    // A one-line field's value stands in the middle of its box; a note starts at its top.
    const top = b.middle ? y0 + Math.max(0, (Math.abs(qy - py) - size) / 2) : y0 + INSET;
    for (const [k, str] of lines.entries()) {
      if (!str) continue;
      out.push({
        str,
        x: x0 + INSET,
        y: top + k * size * 1.2,
        w: Math.min(room || str.length * size * CHAR_WIDTH, str.length * size * CHAR_WIDTH),
        h: size,
        size,
        fontName: font,
        fontId: font,
        bold: boldByName(face),
        italic: italicByName(face),
        dir: 'ltr',
        hasEOL: true,
        rotated: false,
        href: undefined,
      });
    }
  }
  return out;
}
