import type { ParseOptions } from '@docmill/core';

export interface FormState {
  formats: string[];
  pdfMode: string;
  piiMode: string;
  piiStyle: string;
  /** The chunks format's settings, when it is on. */
  chunks?: { maxTokens: number; overlapTokens: number; tokenizer: string };
}

/** The form's choices as parse options. `redacts` says whether this bundle can honour redactPII. */
export function readOptions(form: FormState, redacts: boolean): ParseOptions {
  // html is always asked for: the Rendered tab shows it in a sandboxed frame.
  const formats: NonNullable<ParseOptions['formats']> = [...new Set(['markdown', 'html', ...form.formats])] as never;
  if (form.chunks)
    formats.push({
      type: 'chunks',
      maxTokens: form.chunks.maxTokens,
      overlapTokens: form.chunks.overlapTokens,
      tokenizer: form.chunks.tokenizer as 'o200k_base' | 'cl100k_base',
    });
  const options: ParseOptions = {
    formats,
    parsers: [{ type: 'pdf', mode: form.pdfMode as 'auto' | 'fast' | 'ocr', blocks: true, pages: true }, 'image'],
    timeout: 300_000,
  };
  if (redacts && form.piiMode !== 'off') {
    options.redactPII = {
      mode: form.piiMode as 'fast' | 'accurate' | 'aggressive',
      replaceStyle: form.piiStyle as 'tag' | 'mask' | 'remove',
    };
  }
  return options;
}
