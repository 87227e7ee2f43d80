import {
  ACCEPTED_EXTENSIONS,
  DocmillError,
  extensionOf,
  normalizeOptions,
  type ParseData,
  type ParseHints,
} from '@docmill/core';
import type { Hono } from 'hono';
import { readJsonBody } from '../body.ts';
import type { AppEnv, Services } from '../context.ts';
import { badRequest } from '../errors.ts';
import { passwordHeader } from '../multipart.ts';
import { deadline, parseInSlot, withSlot, withUpload } from '../run.ts';
import { CACHE_KEYS, httpUrl } from '../schemas.ts';
import type { Fetcher } from '../scrape/types.ts';

/** What needs a browser (or a hosted model) and therefore cannot be served here. */
const BROWSER_KEYS = ['actions', 'waitFor', 'mobile', 'location'];
const BROWSER_FORMATS = new Set([
  'screenshot',
  'branding',
  'changeTracking',
  'audio',
  'video',
  'product',
  'menu',
  'question',
  'highlights',
  'attributes',
]);

function refuseBrowserOnly(body: Record<string, unknown>): void {
  for (const key of BROWSER_KEYS) {
    const v = body[key];
    if (v !== undefined && v !== 0 && v !== false && !(Array.isArray(v) && v.length === 0)) {
      throw badRequest(`This server does not render pages in a browser: "${key}" is not supported on /v2/scrape.`);
    }
  }
  if (!Array.isArray(body.formats)) return;
  for (const f of body.formats) {
    const type = typeof f === 'string' ? f : (f as { type?: unknown } | null)?.type;
    if (typeof type === 'string' && BROWSER_FORMATS.has(type)) {
      throw badRequest(`This server does not render pages in a browser: the "${type}" format is not supported.`);
    }
  }
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Tabs are allowed inside a field value; every other control character (CR, LF, NUL) is not.
const BAD_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** Header names and values a request line can carry: a CR or LF would smuggle another header. */
function checkHeaders(headers: Record<string, string> | undefined): void {
  for (const [name, value] of Object.entries(headers ?? {})) {
    const shown = JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
    if (!TOKEN.test(name)) throw badRequest(`Invalid option headers: ${shown} is not a valid header name.`);
    if (BAD_VALUE.test(value)) {
      throw badRequest(`Invalid option headers: the value of ${shown} holds a line break or control character.`);
    }
  }
}

/** A filename hint from the URL path, only when it names a format we accept (not `.php`, `.aspx`). */
function filenameOf(url: string): string | undefined {
  const raw = new URL(url).pathname.split('/').pop() ?? '';
  const last = decodedOr(raw);
  return (ACCEPTED_EXTENSIONS as readonly string[]).includes(extensionOf(last)) ? last : undefined;
}

/** A path segment whose percent-escapes do not decode (`%E0%A4%A`) is a name as written, not a 500. */
function decodedOr(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

let nodeFetcher: Promise<Fetcher> | undefined;
/** The Node fetcher is loaded on first use, so the app itself stays runtime-neutral. */
const defaultFetcher = () => {
  nodeFetcher ??= import('../scrape/node-fetcher.ts').then((m) => m.createNodeFetcher());
  return nodeFetcher;
};

export function scrapeRoute(app: Hono<AppEnv>, s: Services): void {
  app.post('/v2/scrape', async (c) => {
    const body = await readJsonBody(c.req.raw, { maxBytes: s.config.maxJsonBytes, ...s.config.body });
    c.set('bytes', Number(c.req.header('content-length') ?? 0));
    refuseBrowserOnly(body);
    const parsedUrl = httpUrl.safeParse(body.url);
    if (!parsedUrl.success) throw badRequest('Invalid option url: expected an http or https URL.');
    const { url: _url, ...rest } = body;
    for (const k of CACHE_KEYS) delete rest[k];
    const resolved = normalizeOptions(rest);
    c.set('username', resolved.raw.auditMetadata?.username ?? null);
    checkHeaders(resolved.raw.headers);
    const url = parsedUrl.data;
    const password = passwordHeader(c.req.raw);

    // The small JSON body is read first; the fetched document (up to 50 MB) only inside an upload
    // slot, and a slow site never holds a parse slot. `timeout` counts from the upload slot.
    const data = await withUpload(c, s, async (admitted) => {
      const d = deadline(c, resolved.timeout, admitted.startedAt);
      const fetcher = s.config.scrape.fetcher ?? (await defaultFetcher());
      let fetched: Awaited<ReturnType<Fetcher>>;
      try {
        fetched = await fetcher({
          url,
          headers: resolved.raw.headers ?? {},
          signal: d.signal,
          skipTlsVerification: resolved.raw.skipTlsVerification,
          maxBytes: s.config.maxFileBytes,
          maxRedirects: s.config.scrape.maxRedirects,
          allowPrivateNetworks: s.config.scrape.allowPrivateNetworks,
        });
      } catch (err) {
        throw d.reason(err);
      } finally {
        d.clear();
      }
      const hints: Omit<ParseHints, 'signal'> = { sourceURL: fetched.url };
      const filename = filenameOf(fetched.url);
      if (filename) hints.filename = filename;
      if (fetched.contentType) hints.contentType = fetched.contentType;
      if (password) hints.password = password;
      let parsed: ParseData;
      try {
        parsed = await withSlot(c, s, admitted, (slot) =>
          parseInSlot(c, s, slot, fetched.body, rest, resolved.timeout, hints, admitted.startedAt),
        );
      } catch (err) {
        // An error page we cannot parse is still an answer about the page, as the hosted API reports it.
        if (fetched.status < 400 || !(err instanceof DocmillError) || err.status !== 400) throw err;
        parsed = { markdown: '', metadata: { error: null }, warning: null };
      }
      parsed.metadata.sourceURL = url;
      parsed.metadata.url = fetched.url;
      parsed.metadata.statusCode = fetched.status;
      if (fetched.status >= 400) parsed.metadata.error = `The page answered HTTP ${fetched.status}.`;
      return parsed;
    });
    return c.json({ success: true, data });
  });
}
