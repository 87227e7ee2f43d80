import { attr, deep, type XmlElement } from '../../util/xml.ts';
import { dateToSerial, serialToDate, unescapeOoxml } from './xlsx-text.ts';

/**
 * Number formats of an XLSX workbook and the text a cell shows with them. Formatting itself is
 * SheetJS's SSF (the same code that formatted cells before this reader existed); which format a
 * cell gets, and the General rendering, follow SheetJS's XLSX reader so displayed values stay the
 * same to the character.
 */

/** The part of SheetJS's SSF this uses. */
export interface Ssf {
  format(fmt: string, value: unknown, options?: { date1904?: boolean }): string;
  is_date(fmt: string): boolean;
}

/** The formats Excel has built in under these ids (ECMA-376 18.8.30; 14 as SheetJS writes it). */
const BUILT_IN: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'm/d/yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
  56: '"上午/下午 "hh"時"mm"分"ss"秒 "',
};

/** Ids that are not built in but that workbooks use without declaring them (locale formats). */
const IMPLICIT: Record<number, string> = {
  5: '"$"#,##0_);\\("$"#,##0\\)',
  6: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  7: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  8: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  23: 'General',
  24: 'General',
  25: 'General',
  26: 'General',
  27: 'm/d/yy',
  28: 'm/d/yy',
  29: 'm/d/yy',
  30: 'm/d/yy',
  31: 'm/d/yy',
  32: 'h:mm:ss',
  33: 'h:mm:ss',
  34: 'h:mm:ss',
  35: 'h:mm:ss',
  36: 'm/d/yy',
  41: '_(* #,##0_);_(* (#,##0);_(* "-"_);_(@_)',
  42: '_("$"* #,##0_);_("$"* (#,##0);_("$"* "-"_);_(@_)',
  43: '_(* #,##0.00_);_(* (#,##0.00);_(* "-"??_);_(@_)',
  44: '_("$"* #,##0.00_);_("$"* (#,##0.00);_("$"* "-"??_);_(@_)',
  50: 'm/d/yy',
  51: 'm/d/yy',
  52: 'm/d/yy',
  53: 'm/d/yy',
  54: 'm/d/yy',
  55: 'm/d/yy',
  56: 'm/d/yy',
  57: 'm/d/yy',
  58: 'm/d/yy',
  59: '0',
  60: '0.00',
  61: '#,##0',
  62: '#,##0.00',
  63: '"$"#,##0_);\\("$"#,##0\\)',
  64: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  65: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  66: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  67: '0%',
  68: '0.00%',
  69: '# ?/?',
  70: '# ??/??',
  71: 'm/d/yy',
  72: 'm/d/yy',
  73: 'd-mmm-yy',
  74: 'd-mmm',
  75: 'mmm-yy',
  76: 'h:mm',
  77: 'h:mm:ss',
  78: 'm/d/yy h:mm',
  79: 'mm:ss',
  80: '[h]:mm:ss',
  81: 'mmss.0',
};

/** A format Google Sheets writes that is not valid as written. */
const REPAIRED: Record<string, string> = { 'd.m': 'd\\.m' };

/** Custom ids past 392 are remapped into the range SheetJS keeps (it stores at most 392 formats). */
const LAST_ID = 0x188;

/** A cell as the workbook code reads it (the fields SheetJS's cell object had that it uses). */
export interface XlsxCell {
  t: string;
  v?: unknown;
  w?: string;
  c?: { a: string; t: string; T: boolean }[];
}

/** The built-in formats by id, the table every workbook's starts from. */
const BUILT_IN_TABLE: ReadonlyMap<number, string> = new Map(
  Object.entries(BUILT_IN).map(([id, f]) => [Number(id), f] as const),
);

/** A part the reader cannot read the way SheetJS would: the caller hands the file to SheetJS. */
export class NotForThisReader extends Error {}

export class NumberFormats {
  /** Id → format, as the reader has it now: built-ins, the workbook's own, implicit ones used. */
  private readonly table = new Map<number, string>(BUILT_IN_TABLE);
  /** Style index → number format id (`cellXfs`); undefined without a styles part. */
  private readonly xfs: (number | undefined)[] | undefined;

  /** `numFmts` and `cellXfs`: the sections of the styles part this needs. */
  constructor(
    numFmts: XmlElement | undefined,
    cellXfs: XmlElement | undefined,
    private readonly ssf: Ssf,
    private readonly date1904: boolean,
  ) {
    // Formats by id as the styles part declares them, for remapping ids past LAST_ID.
    let declared: Map<number, string> | undefined;
    if (numFmts) {
      declared = new Map(this.table);
      for (const nf of deep(numFmts, 'numFmt')) {
        const code = attr(nf, 'formatCode');
        if (code === undefined) throw new NotForThisReader('a number format without a code');
        const f = unescapeOoxml(code);
        let id = Number.parseInt(attr(nf, 'numFmtId') ?? '', 10);
        declared.set(id, f);
        if (!(id > 0)) continue;
        if (id > LAST_ID) {
          for (id = LAST_ID; id > 0x3c; --id) if (declared.get(id) == null) break;
          declared.set(id, f);
        }
        this.table.set(id, REPAIRED[f] ?? f);
      }
    }
    this.xfs = cellXfs
      ? deep(cellXfs, 'xf').map((xf) => {
          const raw = attr(xf, 'numFmtId');
          if (!raw) return undefined;
          let id = Number.parseInt(raw, 10);
          if (declared && id > LAST_ID)
            for (let i = LAST_ID; i > 0x3c; --i)
              if (declared.get(id) === declared.get(i)) {
                id = i;
                break;
              }
          return id;
        })
      : undefined;
  }

  /** The number format id of a cell's style index (`s`), 0 when it has none. */
  idOf(style: string | undefined): number {
    const xfs = this.xfs;
    // The index is looked up as written: "03" is no index.
    if (!xfs || style === undefined || style === 'length' || !Object.hasOwn(xfs, style)) return 0;
    return (xfs as unknown as Record<string, number | undefined>)[style] ?? 0;
  }

  /** Sets `w`, the text the cell shows, then turns date-formatted numbers into dates. */
  display(cell: XlsxCell, id: number): void {
    if (cell.t !== 'z') {
      try {
        this.show(cell, id);
      } catch {
        // A format SSF cannot apply leaves the cell without `w`; the raw value is shown instead.
      }
    }
    if (this.xfs && cell.t === 'n' && this.ssf.is_date(this.table.get(id) as string)) {
      const v = serialToDate((cell.v as number) + (this.date1904 ? 1462 : 0));
      cell.v = v;
      cell.t = typeof v === 'number' ? 'n' : 'd';
    }
  }

  private show(cell: XlsxCell, id: number): void {
    let fmt = this.table.get(id);
    if (fmt == null) {
      fmt = IMPLICIT[id] ?? 'General';
      this.table.set(id, fmt);
    }
    const options = { date1904: this.date1904 };
    if (cell.t === 'e') cell.w = cell.w || ERRORS[cell.v as number];
    else if (id === 0) {
      // General: integers as they are, other numbers to 11 significant places, text as it is.
      if (cell.t === 'd') cell.w = this.ssf.format('General', dateToSerial(cell.v as Date, this.date1904));
      else if (cell.v !== undefined) cell.w = this.ssf.format('General', cell.v, options);
    } else
      cell.w = this.ssf.format(fmt, cell.t === 'd' ? dateToSerial(cell.v as Date, this.date1904) : cell.v, options);
  }
}

/** Error values by code, and codes by text (`#DIV/0!`). */
const ERRORS: Record<number, string> = {
  0: '#NULL!',
  7: '#DIV/0!',
  15: '#VALUE!',
  23: '#REF!',
  29: '#NAME?',
  36: '#NUM!',
  42: '#N/A',
  43: '#GETTING_DATA',
  255: '#WTF?',
};
export const ERROR_CODES: Record<string, number> = Object.fromEntries(
  Object.entries(ERRORS).map(([code, text]) => [text, Number(code)]),
);
