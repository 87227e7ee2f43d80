import JSZip from 'jszip';

/**
 * XLSX packages written from a small description, and random ones that use every cell type,
 * built-in and custom number formats, both date systems, formulas without values, rich and
 * phonetic text, escapes, merges, comments and threaded comments: inputs on which the XLSX reader
 * is compared with SheetJS.
 */

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export interface Spec {
  sheets: { name: string; cells: string; state?: string; merges?: string; comments?: string; threads?: string }[];
  strings?: string[];
  /** Raw `si` bodies, after the plain strings. */
  richStrings?: string[];
  numFmts?: [number, string][];
  xfs?: (number | undefined)[];
  date1904?: boolean;
  people?: [string, string][];
  title?: string;
  creator?: string;
  /** Writes worksheets and shared strings with this namespace prefix (`x:c`), as some tools do. */
  prefix?: string;
}

/** Markup with the SpreadsheetML elements put under `prefix:` and the namespace declared for it. */
function prefixed(xml: string, prefix: string | undefined): string {
  if (!prefix) return xml;
  return xml
    .replace(
      /<(\/?)(worksheet|sheetData|row|c|v|f|is|t|r|rPh|rPr|b|mergeCells|mergeCell|sst|si)([ >/])/g,
      `<$1${prefix}:$2$3`,
    )
    .replace(`xmlns="${NS}"`, `xmlns:${prefix}="${NS}"`);
}

export async function pack(spec: Spec): Promise<Uint8Array> {
  const zip = new JSZip();
  const overrides = [
    ['/xl/workbook.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'],
    ['/xl/styles.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml'],
    ['/xl/sharedStrings.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml'],
    ['/docProps/core.xml', 'application/vnd.openxmlformats-package.core-properties+xml'],
  ];
  if (spec.people) overrides.push(['/xl/persons/person.xml', 'application/vnd.ms-excel.person+xml']);
  for (let i = 1; i <= spec.sheets.length; i++)
    overrides.push([
      `/xl/worksheets/sheet${i}.xml`,
      'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml',
    ]);
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides.map(([p, t]) => `<Override PartName="${p}" ContentType="${t}"/>`).join('')}</Types>`,
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  zip.file(
    'xl/workbook.xml',
    `<?xml version="1.0"?><workbook xmlns="${NS}" xmlns:r="${R}">${spec.date1904 ? '<workbookPr date1904="1"/>' : '<workbookPr/>'}<sheets>${spec.sheets.map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"${s.state ? ` state="${s.state}"` : ''}/>`).join('')}</sheets></workbook>`,
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${spec.sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${R}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}</Relationships>`,
  );
  const numFmts = spec.numFmts ?? [];
  zip.file(
    'xl/styles.xml',
    `<?xml version="1.0"?><styleSheet xmlns="${NS}">${numFmts.length ? `<numFmts count="${numFmts.length}">${numFmts.map(([id, f]) => `<numFmt numFmtId="${id}" formatCode="${esc(f)}"/>`).join('')}</numFmts>` : ''}<cellXfs>${(spec.xfs ?? [0]).map((id) => (id === undefined ? '<xf/>' : `<xf numFmtId="${id}"/>`)).join('')}</cellXfs></styleSheet>`,
  );
  const items = [
    ...(spec.strings ?? []).map((s) => `<t xml:space="preserve">${esc(s)}</t>`),
    ...(spec.richStrings ?? []),
  ];
  zip.file(
    'xl/sharedStrings.xml',
    prefixed(
      `<?xml version="1.0"?><sst xmlns="${NS}" count="${items.length}" uniqueCount="${items.length}">${items.map((b) => `<si>${b}</si>`).join('')}</sst>`,
      spec.prefix,
    ),
  );
  zip.file(
    'docProps/core.xml',
    `<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${esc(spec.title ?? '')}</dc:title><dc:creator>${esc(spec.creator ?? '')}</dc:creator><cp:lastModifiedBy>Last One</cp:lastModifiedBy></cp:coreProperties>`,
  );
  if (spec.people)
    zip.file(
      'xl/persons/person.xml',
      `<?xml version="1.0"?><personList xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments">${spec.people.map(([id, name]) => `<person displayName="${esc(name)}" id="${id}" userId="x" providerId="None"/>`).join('')}</personList>`,
    );
  spec.sheets.forEach((s, i) => {
    zip.file(
      `xl/worksheets/sheet${i + 1}.xml`,
      prefixed(
        `<?xml version="1.0"?><worksheet xmlns="${NS}" xmlns:r="${R}"><sheetData>${s.cells}</sheetData>${s.merges ?? ''}</worksheet>`,
        spec.prefix,
      ),
    );
    const rels: string[] = [];
    if (s.comments) {
      rels.push(`<Relationship Id="c1" Type="${R}/comments" Target="../comments${i + 1}.xml"/>`);
      zip.file(`xl/comments${i + 1}.xml`, `<?xml version="1.0"?><comments xmlns="${NS}">${s.comments}</comments>`);
    }
    if (s.threads) {
      rels.push(
        `<Relationship Id="t1" Type="http://schemas.microsoft.com/office/2017/10/relationships/threadedComment" Target="../threadedComments/thread${i + 1}.xml"/>`,
      );
      zip.file(
        `xl/threadedComments/thread${i + 1}.xml`,
        `<?xml version="1.0"?><ThreadedComments xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments">${s.threads}</ThreadedComments>`,
      );
    }
    if (rels.length)
      zip.file(
        `xl/worksheets/_rels/sheet${i + 1}.xml.rels`,
        `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`,
      );
  });
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

const CUSTOM_FORMATS = [
  'yyyy-mm-dd',
  'yyyy-mm-dd hh:mm:ss',
  'mmm d, yyyy',
  'dddd, mmmm dd, yyyy',
  '[h]:mm:ss',
  'h:mm AM/PM',
  'mm:ss.0',
  '0.000',
  '#,##0.00_);[Red](#,##0.00)',
  '"$"#,##0.00',
  '0.00%',
  '# ?/?',
  '0.00E+00',
  '@',
  '[>=100]"big";[<0]"neg";"small"',
  '#,##0,"k"',
  '"Total: "0',
  'd.m',
  '[$-409]mmmm d, yyyy;@',
  '0;-0;;@',
  'General',
  '[Blue]0.0;[Red]-0.0',
];
const TEXTS = [
  'plain',
  ' padded ',
  'a & b < c',
  'line\nbreak',
  'tab\there',
  'emoji 😀',
  'é ü ß',
  'x_x0041_y',
  '"quoted"',
  '',
];
const ERRORS_TEXT = ['#DIV/0!', '#N/A', '#VALUE!', '#REF!', '#NAME?', '#NUM!', '#NULL!', '#BOGUS'];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

function randomNumber(rand: () => number): string {
  switch (Math.floor(rand() * 8)) {
    case 0:
      return String(Math.floor(rand() * 100000));
    case 1:
      return String((rand() - 0.5) * 1e6);
    case 2:
      return String(rand() * 1e-5);
    case 3:
      return String(Math.floor(rand() * 60000) + rand());
    case 4:
      return pick(rand, ['60', '59', '61', '0', '1', '-1', '1e21', '123456789012', '0.1', '2958465']);
    case 5:
      return String(rand());
    case 6:
      return String(Math.floor(rand() * 1e9) / 100);
    default:
      return String(-Math.floor(rand() * 50000) / 7);
  }
}

/** Workbook `k` of a random series (`rand` from `prng`). */
export async function generated(rand: () => number, k: number): Promise<Uint8Array> {
  const numFmts: [number, string][] = CUSTOM_FORMATS.map((f, i) => [164 + i, f]);
  numFmts.push([400, 'yyyy/mm/dd'], [401, '0.0"x"']);
  const builtIn = Array.from({ length: 82 }, (_, i) => i);
  const xfs: (number | undefined)[] = [0, undefined, ...builtIn, ...numFmts.map(([id]) => id)];
  const strings = TEXTS;
  const richStrings = [
    '<r><t>rich </t></r><r><rPr><b/></rPr><t xml:space="preserve">run</t></r>',
    '<t>漢字</t><rPh sb="0" eb="2"><t>かんじ</t></rPh>',
    '<r><t>a</t></r><rPh sb="0" eb="1"><t>ignored</t></rPh><r><t>b</t></r>',
    '<t>&amp;lt;kept&amp;gt; _x000D_ cr</t>',
  ];
  const stringCount = strings.length + richStrings.length;
  const sheets: Spec['sheets'] = [];
  for (let s = 0; s < 2; s++) {
    let rows = '';
    let shared = 0;
    for (let r = 1; r <= 12; r++) {
      let cells = '';
      const noRowRef = rand() < 0.1;
      for (let c = 0; c < 8; c++) {
        const ref = `${String.fromCharCode(65 + c)}${r}`;
        const odd = rand();
        const refAttr =
          noRowRef || odd < 0.05
            ? ''
            : odd < 0.07
              ? ` r="${pick(rand, [ref.toLowerCase(), `$${ref}`, '', 'A1048577', `${ref}:${ref}`])}"`
              : ` r="${ref}"`;
        const style =
          rand() < 0.8
            ? ` s="${rand() < 0.05 ? pick(rand, ['03', '-1', 'x', '1.5', '']) : Math.floor(rand() * (xfs.length + 2))}"`
            : '';
        const kind = Math.floor(rand() * 12);
        if (kind === 0) cells += `<c${refAttr}${style} t="s"><v>${Math.floor(rand() * stringCount)}</v></c>`;
        else if (kind === 1)
          cells += `<c${refAttr}${style} t="str"><f>A1</f><v>${esc(pick(rand, TEXTS))}&amp;amp;</v></c>`;
        else if (kind === 2)
          cells += `<c${refAttr}${style} t="inlineStr"><is>${rand() < 0.5 ? `<t>${esc(pick(rand, TEXTS))}</t>` : pick(rand, richStrings)}</is></c>`;
        else if (kind === 3)
          cells += `<c${refAttr}${style} t="b"><v>${pick(rand, ['0', '1', 'true', 'false', 'x'])}</v></c>`;
        else if (kind === 4) cells += `<c${refAttr}${style} t="e"><v>${pick(rand, ERRORS_TEXT)}</v></c>`;
        else if (kind === 5)
          cells += `<c${refAttr}${style} t="d"><v>${pick(rand, ['2024-02-29', '1900-01-01', '2024-03-01T13:45:30', '12:30', '12:30:15.250', '2024-13-45', 'not a date'])}</v></c>`;
        else if (kind === 6) cells += `<c${refAttr}${style}><f>SUM(A1:A2)</f></c>`;
        else if (kind === 7) {
          cells +=
            shared === 0
              ? `<c${refAttr}${style}><f t="shared" ref="A1:H12" si="${shared++}">A1*2</f></c>`
              : `<c${refAttr}${style}><f t="shared" si="0"/></c>`;
        } else if (kind === 8) cells += `<c${refAttr}${style}/>`;
        else if (kind === 9) cells += `<c${refAttr}${style} t="n"><v></v></c>`;
        else cells += `<c${refAttr}${style}><v>${randomNumber(rand)}</v></c>`;
      }
      const rowRef = rand() < 0.05 ? pick(rand, ['2', '3', '0', 'x']) : String(r);
      rows += noRowRef ? `<row>${cells}</row>` : `<row r="${rowRef}">${cells}</row>`;
    }
    if (rand() < 0.3) rows += '<row r="20"><c r="C20"><f t="array" ref="C20:D21">A1:B2</f></c><c r="D21"/></row>';
    sheets.push({
      name: s === 0 ? `Data ${k} &amp; more` : `Sheet_x0032_`,
      state: rand() < 0.2 ? pick(rand, ['hidden', 'veryHidden', 'visible']) : undefined,
      cells: rows,
      merges: '<mergeCells count="2"><mergeCell ref="A1:B2"/><mergeCell ref="D5:D7" extra="1"/></mergeCells>',
      comments:
        rand() < 0.6
          ? '<authors><author>Ann &amp; Co</author><author></author></authors><commentList><comment ref="B2" authorId="0"><text><r><t>note one</t></r></text></comment><comment ref="Z99" authorId="1"><text><t>on an empty cell</t></text></comment><comment ref="C3" authorId="7"><text><t xml:space="preserve">no author\r\nline</t></text></comment><comment ref="E4" authorId="0"><text><t>[Threaded comment] legacy copy</t></text></comment></commentList>'
          : undefined,
      threads:
        rand() < 0.5
          ? '<threadedComment ref="E4" personId="{P1}" id="{T1}"><text>first thought</text></threadedComment><threadedComment ref="E4" personId="{P2}" id="{T2}" parentId="{T1}"><text>reply</text></threadedComment><threadedComment ref="F9" personId="{P9}" id="{T3}"><text>unknown person</text></threadedComment>'
          : undefined,
    });
  }
  return pack({
    sheets,
    strings,
    richStrings,
    numFmts,
    xfs,
    date1904: rand() < 0.3,
    people: [
      ['{P1}', 'Pat One'],
      ['{P2}', 'Sam Two'],
    ],
    title: k % 3 ? `Book ${k}` : '',
    creator: k % 2 ? 'Author' : '',
    prefix: k % 4 === 3 ? 'x' : undefined,
  });
}
