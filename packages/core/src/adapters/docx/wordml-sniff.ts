/**
 * Recognising Word 2003 XML, apart from its reader: detection runs on every input, and importing
 * the reader from here would put the zip and XML code on the path of every parse.
 */
export const WORDML_2003_NS = 'http://schemas.microsoft.com/office/word/2003/wordml';

/** True when a text head opens a Word 2003 XML document (root `wordDocument` in its namespace). */
export function isWordMl2003(head: string): boolean {
  return /<([\w.-]+:)?wordDocument[\s>]/.test(head) && head.includes(WORDML_2003_NS);
}
