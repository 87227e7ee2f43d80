import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '../../..');
export const fixture = (rel: string): Uint8Array => new Uint8Array(readFileSync(resolve(root, 'fixtures', rel)));

/** A multipart body the way the official SDK builds it: `options` string field first, then `file`. */
export function form(parts: { options?: string | Blob; file?: Blob; filename?: string }): FormData {
  const fd = new FormData();
  if (parts.options !== undefined) fd.append('options', parts.options);
  if (parts.file) fd.append('file', parts.file, parts.filename ?? 'upload.bin');
  return fd;
}

export const post = (body: FormData | string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  body,
  headers,
});
