import type { ParseOptions } from '@docmill/core';

/** The form's choices as parse options. `redacts` says whether this bundle can honour redactPII. */
export function readOptions(
  form: { formats: string[]; pdfMode: string; piiMode: string; piiStyle: string },
  redacts: boolean,
): ParseOptions {
  // html is always asked for: the Rendered tab shows it in a sandboxed frame.
  const formats = [...new Set(['markdown', 'html', ...form.formats])] as ParseOptions['formats'];
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
