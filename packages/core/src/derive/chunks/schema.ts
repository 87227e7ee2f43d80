import { z } from 'zod';
import { chunkTypes } from './types.ts';

/**
 * A chunk of `data.chunks` (the `chunks` format, `chunk()`) as a zod schema, for tools that document
 * or check it: `z.toJSONSchema(chunkSchema)` gives its JSON Schema. The `Chunk` type says the same;
 * a test keeps the two equal, and every chunk of the corpus is checked against it.
 */
export const chunkSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^c[1-9]\d*$/)
      .describe('`c1`, `c2`, … in reading order; unique within one document.'),
    text: z
      .string()
      .describe("The chunk's own Markdown (a table part starts with the table's header row; an overlap comes first)."),
    tokens: z.number().int().min(0).describe('Tokens of `text` by the chunking tokenizer; never above `maxTokens`.'),
    headings: z
      .array(z.string())
      .describe('Heading path where the chunk starts, outermost first (the headings it starts with included).'),
    type: z.enum(chunkTypes).describe('What the chunk holds: one kind of block, or several (`mixed`).'),
    pages: z
      .array(z.number().int().min(1))
      .optional()
      .describe('1-based pages (PDF, images, DOCX with rendered page breaks) or slide numbers (presentations).'),
    sheet: z.string().optional().describe("Sheet name (spreadsheets; the file name's stem for CSV)."),
    chapter: z.number().int().min(1).optional().describe("1-based chapter in the EPUB's reading order."),
    chapterTitle: z.string().optional().describe("The chapter's title from the book's table of contents."),
    within: z
      .array(z.string())
      .optional()
      .describe(
        'Documents inside documents: the messages, attachments, archive members and feed items the chunk lies in, outermost first.',
      ),
    bbox: z
      .array(
        z.strictObject({
          page: z.number().int().min(1),
          bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).describe('[x0, y0, x1, y1]'),
        }),
      )
      .optional()
      .describe("Per page, the union of the chunk's block boxes (PDF points, origin top-left)."),
    startOffset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Start of the range of `data.markdown` the content comes from (UTF-16 offset).'),
    endOffset: z.number().int().min(0).optional().describe('End of that range (exclusive).'),
    blocks: z
      .array(z.string())
      .optional()
      .describe('Ids of the `data.blocks` items the chunk draws on (`p1-b3`), for highlighting.'),
  })
  .describe('A piece of a document sized for embedding, with its provenance.');
