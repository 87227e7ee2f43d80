import type { ParseData } from '@docmill/core';

/** The formats a response can carry, in the order `--formats` named them. */
export type OutputFormat = 'markdown' | 'html' | 'rawHtml' | 'links' | 'images' | 'summary' | 'json' | 'chunks';

const endLine = (s: string) => (s === '' || s.endsWith('\n') ? s : `${s}\n`);

/** One format of a response as a user would want it on a terminal or in a file. */
function renderOne(data: ParseData, format: OutputFormat, source: string): string {
  switch (format) {
    case 'markdown':
      return data.markdown ?? '';
    case 'html':
      return endLine(data.html ?? '');
    case 'rawHtml':
      return endLine(data.rawHtml ?? '');
    case 'links':
      return (data.links ?? []).map((l) => `${l}\n`).join('');
    case 'images':
      return (data.images ?? []).map((l) => `${l}\n`).join('');
    case 'summary':
      return endLine(data.summary ?? '');
    case 'json':
      return `${JSON.stringify(data.json ?? null, null, 2)}\n`;
    case 'chunks':
      // JSON Lines: one chunk per line, named by the document it comes from.
      return (data.chunks ?? []).map((c) => `${JSON.stringify({ source, ...c })}\n`).join('');
  }
}

/**
 * What `docmill parse` prints without `--json`: each requested format as itself (HTML as HTML,
 * links one per line, JSON as JSON, chunks as JSON Lines with `source`), several formats one after
 * another, separated by a blank line.
 */
export function renderOutput(data: ParseData, formats: readonly OutputFormat[], source = ''): string {
  return formats
    .map((f) => renderOne(data, f, source))
    .filter((s) => s !== '')
    .join('\n');
}

/** File extension for folder conversion: what the written file holds. */
export function outputExtension(formats: readonly OutputFormat[], json: boolean): string {
  if (json) return '.json';
  if (formats.length !== 1) return '.txt';
  switch (formats[0]) {
    case 'markdown':
      return '.md';
    case 'html':
    case 'rawHtml':
      return '.html';
    case 'json':
      return '.json';
    case 'chunks':
      return '.jsonl';
    default:
      return '.txt';
  }
}

/** How the CLI names the way to give a password, in the error of an encrypted document (withPasswordHint). */
export const CLI_PASSWORD_HINT = 'with --password';

/** `data.warning` as stderr lines, each prefixed `warning:` (newlines inside it are folded). */
export function warningLines(warning: string | null, prefix = ''): string {
  return warning ? `warning: ${prefix}${warning.replace(/\s*\n\s*/g, ' ')}\n` : '';
}
