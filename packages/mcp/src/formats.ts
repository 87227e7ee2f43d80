import { type ACCEPTED_EXTENSIONS, IMAGE_EXTENSIONS } from '@docmill/core';

type Accepted = (typeof ACCEPTED_EXTENSIONS)[number];

export interface Family {
  family: string;
  extensions: string[];
  yields: string;
}

/** What each family of accepted files gives (every accepted extension appears once: tested). */
const FAMILIES: ReadonlyArray<{ family: string; extensions: Accepted[]; yields: string }> = [
  {
    family: 'PDF',
    extensions: ['.pdf'],
    yields:
      'headings, paragraphs, lists, tables (also across pages), reading order of columns; page headers and footers removed; scanned pages OCR’d (mode auto/ocr); per-page Markdown and layout blocks with parsers [{type:"pdf", pages:true, blocks:true}]',
  },
  {
    family: 'Word processing',
    extensions: ['.docx', '.docm', '.doc', '.odt', '.rtf'],
    yields: 'headings from styles, lists, tables with merged cells, footnotes, links, equations',
  },
  {
    family: 'Slides',
    extensions: ['.pptx', '.pptm', '.ppt', '.odp'],
    yields: 'a section per slide with its title as heading, text, tables, charts as tables, speaker notes as quotes',
  },
  {
    family: 'Spreadsheets',
    extensions: ['.xlsx', '.xlsm', '.xlsb', '.xls', '.ods'],
    yields: 'a section per sheet, its cells as tables with displayed values and merged cells',
  },
  {
    family: 'Web and text',
    extensions: ['.html', '.htm', '.xhtml', '.epub', '.csv'],
    yields:
      'HTML: the main content (navigation, ads and footers dropped unless onlyMainContent is false), links, images; EPUB: a section per chapter; CSV: one table',
  },
];

/** The answer of list_formats: families, outputs and the image rule. */
export function formatList() {
  return {
    families: FAMILIES.map((f) => ({ ...f, extensions: [...f.extensions] })) as Family[],
    images: {
      extensions: [...IMAGE_EXTENSIONS],
      yields: 'OCR’d text laid out as a document, only when parsers includes "image"',
    },
    formats: {
      markdown: 'the document as Markdown (default)',
      html: 'the document as HTML',
      rawHtml: 'HTML inputs: the page as given',
      links: 'every link target',
      images: 'every image reference',
      summary: 'a summary (needs a language model configured on the server)',
      json: 'data extracted along a JSON schema (needs a language model configured on the server)',
      chunks: 'the document cut for retrieval, following headings, tables and lists (chunk_document)',
    },
    detection:
      'The type is decided by the bytes first, the file name second and the content type third, so a mislabelled file is read as what it is.',
  };
}

export const familyExtensions = (): string[] => FAMILIES.flatMap((f) => f.extensions);
