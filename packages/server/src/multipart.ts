import { DocmillError } from '@docmill/core';
import { type BodyRules, readBody } from './body.ts';
import { badRequest, fileTooLarge, INVALID_OPTIONS_JSON, MISSING_FILE, OPTIONS_NOT_OBJECT } from './errors.ts';
import { MultipartParser, type PartHeaders } from './multipart-parser.ts';

/** Room for boundaries, part headers and the `options` field on top of the file itself. */
export const FORM_OVERHEAD_BYTES = 1024 * 1024;
/** The `options` field, whatever its form (string field or JSON part). */
const MAX_OPTIONS_BYTES = 1024 * 1024;
/** The `password` field: document passwords are far shorter (PDF 127 bytes, Office 255 characters). */
const MAX_PASSWORD_BYTES = 1024;

export interface Upload {
  file: Uint8Array;
  filename: string | undefined;
  /** The part's content type, unless it says nothing (missing or application/octet-stream). */
  contentType: string | undefined;
  /** Raw options object, not yet validated. */
  options: Record<string, unknown>;
  /** The document's password: the `password` field, else the `X-Docmill-Password` header. */
  password: string | undefined;
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

/** The boundary parameter of a multipart content type (RFC 2046: 1–70 characters). */
function boundaryOf(type: string): string {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(type);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) throw badRequest(`Invalid multipart/form-data body: no boundary in the Content-Type. ${MISSING_FILE}`);
  return boundary;
}

/**
 * Header values arrive as bytes, one character each; a UTF-8 password is decoded as such (and a
 * value that is not UTF-8 is taken as Latin-1, as it came).
 */
function headerText(value: string | null): string | undefined {
  if (!value) return undefined;
  const bytes = Uint8Array.from(value, (c) => c.charCodeAt(0) & 0xff);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return value;
  }
}

/** The `X-Docmill-Password` header, for clients that cannot add a form field (and for scrape). */
export const passwordHeader = (request: Request): string | undefined =>
  headerText(request.headers.get('x-docmill-password'));

type Field = 'file' | 'options' | 'password';

/** Collects the three fields the API reads; every other part's bytes are dropped as they pass. */
class FormFields {
  readonly #maxFileBytes: number;
  #current: Field | undefined;
  #size = 0;
  #chunks: Uint8Array[] = [];
  readonly #seen = new Set<Field>();
  readonly values = new Map<Field, { headers: PartHeaders; chunks: Uint8Array[]; size: number }>();

  constructor(maxFileBytes: number) {
    this.#maxFileBytes = maxFileBytes;
  }

  part(h: PartHeaders): void {
    const name = h.name as Field | undefined;
    // The first part of each name counts, as FormData.get() would have it.
    this.#current =
      (name === 'file' || name === 'options' || name === 'password') && !this.#seen.has(name) ? name : undefined;
    if (!this.#current) return;
    this.#seen.add(this.#current);
    this.#size = 0;
    this.#chunks = [];
    this.values.set(this.#current, { headers: h, chunks: this.#chunks, size: 0 });
  }

  data(bytes: Uint8Array): void {
    const field = this.#current;
    if (!field) return;
    this.#size += bytes.byteLength;
    const max = field === 'file' ? this.#maxFileBytes : field === 'options' ? MAX_OPTIONS_BYTES : MAX_PASSWORD_BYTES;
    if (this.#size > max) {
      if (field === 'file') throw fileTooLarge(this.#maxFileBytes);
      throw badRequest(`The '${field}' field exceeds ${max} bytes (the limit).`);
    }
    this.#chunks.push(bytes);
  }

  end(): void {
    const v = this.#current && this.values.get(this.#current);
    if (v) v.size = this.#size;
    this.#current = undefined;
  }
}

/** Bytes copied between turns of the event loop when a part's pieces are joined. */
const JOIN_SLICE_BYTES = 4 * 1024 * 1024;

/** A part's pieces as one array; a 50 MB file is copied a few MB at a time, never in one step. */
async function joined(chunks: Uint8Array[], size: number): Promise<Uint8Array> {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(size);
  let at = 0;
  let sinceTurn = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
    sinceTurn += c.byteLength;
    if (sinceTurn >= JOIN_SLICE_BYTES) {
      sinceTurn = 0;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  return out;
}

/**
 * Reads a `/v2/parse` multipart body as it streams: `file` (required), `options` as a plain string
 * field (what the official SDK sends) or a JSON part, and `password`. At most 100 parts and 16 KB
 * of headers per part; the size limit holds while the body streams (a declared Content-Length over
 * it is refused before reading) and so do the pace rules of `readBody`.
 */
export async function readUpload(
  request: Request,
  maxFileBytes: number,
  pace: Omit<BodyRules, 'maxBytes'>,
): Promise<Upload> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type) || !request.body) throw badRequest(MISSING_FILE);
  const maxBody = maxFileBytes + FORM_OVERHEAD_BYTES;
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBody) throw fileTooLarge(maxFileBytes);

  const fields = new FormFields(maxFileBytes);
  const parser = new MultipartParser(boundaryOf(type), fields);
  let bodyBytes: number;
  try {
    bodyBytes = await readBody(
      request,
      { ...pace, maxBytes: maxBody },
      (chunk) => parser.push(chunk),
      () => fileTooLarge(maxFileBytes),
    );
  } catch (err) {
    // A client that goes away mid-upload is its own failure, not the server's (no 500).
    throw err instanceof DocmillError ? err : badRequest(`The request body could not be read. ${MISSING_FILE}`);
  }
  parser.end();

  const text = async (f: Field) => {
    const v = fields.values.get(f);
    return v ? new TextDecoder().decode(await joined(v.chunks, v.size)) : undefined;
  };
  const options = parseOptionsField((await text('options')) ?? '');
  const file = fields.values.get('file');
  if (!file) throw badRequest(MISSING_FILE);
  const partType = file.headers.contentType?.split(';')[0]?.trim().toLowerCase();
  return {
    file: await joined(file.chunks, file.size),
    filename: file.headers.filename || undefined,
    contentType: partType && partType !== 'application/octet-stream' ? file.headers.contentType : undefined,
    options,
    password: (await text('password')) || passwordHeader(request),
    bodyBytes,
  };
}
