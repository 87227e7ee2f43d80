import { countBytes } from './body.ts';
import { badRequest, fileTooLarge, INVALID_OPTIONS_JSON, MISSING_FILE, OPTIONS_NOT_OBJECT } from './errors.ts';

/** Room for boundaries, part headers and the `options` field on top of the file itself. */
export const FORM_OVERHEAD_BYTES = 1024 * 1024;

export interface Upload {
  file: Blob;
  filename: string | undefined;
  /** The part's content type, unless it says nothing (missing or application/octet-stream). */
  contentType: string | undefined;
  /** Raw options object, not yet validated. */
  options: Record<string, unknown>;
  /** Bytes of the whole request body as received. */
  bodyBytes: number;
}

function parseOptionsField(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(INVALID_OPTIONS_JSON);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest(OPTIONS_NOT_OBJECT);
  return value as Record<string, unknown>;
}

/**
 * Reads a `/v2/parse` multipart body: `file` (required) and `options` as a plain string field (what
 * the official SDK sends) or a JSON file part. The size limit holds while the body streams: a
 * declared Content-Length over it is refused before reading, otherwise bytes are counted.
 */
export async function readUpload(request: Request, maxFileBytes: number): Promise<Upload> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type) || !request.body) throw badRequest(MISSING_FILE);
  const maxBody = maxFileBytes + FORM_OVERHEAD_BYTES;
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBody) throw fileTooLarge(maxFileBytes);

  let over = false;
  const { stream, counter } = countBytes(request.body, maxBody, () => {
    over = true;
  });
  let form: FormData;
  try {
    form = await new Response(stream, { headers: { 'content-type': type } }).formData();
  } catch {
    if (over) throw fileTooLarge(maxFileBytes);
    throw badRequest(`Invalid multipart/form-data body. ${MISSING_FILE}`);
  }

  const optionsPart = form.get('options');
  let options: Record<string, unknown> = {};
  if (typeof optionsPart === 'string') options = parseOptionsField(optionsPart);
  else if (optionsPart) options = parseOptionsField(await optionsPart.text());

  const file = form.get('file');
  if (!file || typeof file === 'string') throw badRequest(MISSING_FILE);
  if (file.size > maxFileBytes) throw fileTooLarge(maxFileBytes);
  const partType = file.type.split(';')[0]?.trim().toLowerCase();
  return {
    file,
    filename: (file as File).name || undefined,
    contentType: partType && partType !== 'application/octet-stream' ? file.type : undefined,
    options,
    bodyBytes: counter.bytes,
  };
}
