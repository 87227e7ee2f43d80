import {
  ACCEPTED_EXTENSIONS,
  DocmillError,
  extensionOf,
  IMAGE_EXTENSIONS,
  normalizeOptions,
  type ParseHints,
  type ParseOptions,
} from '@docmill/core';
import type { Hono } from 'hono';
import type { AppEnv, Services } from '../context.ts';
import { readUpload } from '../multipart.ts';
import { parseInSlot, withSlot, withUpload } from '../run.ts';

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
    withUpload(c, s, async (admitted) => {
      const upload = await readUpload(c.req.raw, s.config.maxFileBytes, s.config.body);
      c.set('bytes', upload.bodyBytes);
      // Validated here as well as in the engine: the audit/retention fields are needed even when
      // the parse fails, and a bad request should fail before any parsing work.
      const resolved = normalizeOptions(upload.options);
      c.set('username', resolved.raw.auditMetadata?.username ?? null);
      if (!resolved.raw.zeroDataRetention) c.set('filename', upload.filename);
      checkExtension(upload.filename, resolved.imageParser);
      const hints: Omit<ParseHints, 'signal'> = {};
      if (upload.filename) hints.filename = upload.filename;
      if (upload.contentType) hints.contentType = upload.contentType;
      // Never logged nor echoed: it goes to the engine and nowhere else.
      if (upload.password) hints.password = upload.password;
      const options = upload.options as ParseOptions;
      const data = await withSlot(c, s, admitted, (slot) =>
        parseInSlot(c, s, slot, upload.file, options, resolved.timeout, hints),
      );
      return c.json({ success: true, data });
    }),
  );
}
