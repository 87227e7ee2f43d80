import type { Suite } from '../harness.ts';
import { csvSuite, htmlSuite } from './html-csv.ts';
import { docxSuite, xlsxSuite } from './office.ts';
import { pdfSuite } from './pdf.ts';

export const suites: Suite[] = [htmlSuite, csvSuite, docxSuite, xlsxSuite, pdfSuite];
