import {
  ACCEPTED_EXTENSIONS,
  DocmillError,
  extensionOf,
  IMAGE_EXTENSIONS,
  normalizeOptions,
  type ParseOptions,
} from '@docmill/core';
import type { Hono } from 'hono';
import type { AppEnv, Services } from '../context.ts';
import { readUpload } from '../multipart.ts';
import { parseInSlot, withSlot } from '../run.ts';

/** The hosted service decides by extension before reading the bytes; so do we. */
function checkExtension(filename: string | undefined, imagesAccepted: boolean): void {
  const ext = extensionOf(filename);
  if (!ext) return; // no extension: the engine sniffs the bytes
  if ((ACCEPTED_EXTENSIONS as readonly string[]).includes(ext)) return;
  if (imagesAccepted && IMAGE_EXTENSIONS.includes(ext)) return;
  throw new DocmillError(
    400,
    'UNSUPPORTED_FILE_TYPE',
    `Unsupported upload type. Supported file extensions: ${ACCEPTED_EXTENSIONS.join(', ')}.`,
  );
}

export function parseRoute(app: Hono<AppEnv>, s: Services): void {
  app.post('/v2/parse', (c) =>
    withSlot(c, s, async (slot) => {
      const upload = await readUpload(c.req.raw, s.config.maxFileBytes);
      c.set('bytes', upload.bodyBytes);
      // Validated here as well as in the engine: the audit/retention fields are needed even when
      // the parse fails, and a bad request should fail before any parsing work.
      const resolved = normalizeOptions(upload.options);
      c.set('username', resolved.raw.auditMetadata?.username ?? null);
      if (!resolved.raw.zeroDataRetention) c.set('filename', upload.filename);
      checkExtension(upload.filename, resolved.imageParser);
      const bytes = new Uint8Array(await upload.file.arrayBuffer());
      const hints: { filename?: string; contentType?: string } = {};
      if (upload.filename) hints.filename = upload.filename;
      if (upload.contentType) hints.contentType = upload.contentType;
      const options = upload.options as ParseOptions;
      const data = await parseInSlot(c, s, slot, bytes, options, resolved.timeout, hints);
      return c.json({ success: true, data });
    }),
  );
}
