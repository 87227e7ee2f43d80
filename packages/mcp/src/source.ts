import { basename, posix } from 'node:path';
import { ACCEPTED_EXTENSIONS, DocmillError, extensionOf, IMAGE_EXTENSIONS } from '@docmill/core';
import type { Fetcher } from '@docmill/server/node';
import { readChecked } from './read-file.ts';
import { locate, type Root } from './roots.ts';

/** Where a tool's document comes from: exactly one of them. */
export interface SourceArgs {
  path?: string | undefined;
  url?: string | undefined;
  data?: string | undefined;
  filename?: string | undefined;
}

export interface Loaded {
  bytes: Uint8Array;
  hints: { filename?: string; contentType?: string; sourceURL?: string };
  /** Which input was used, for the log. */
  kind: 'path' | 'url' | 'data';
}

export interface SourceContext {
  roots(): Promise<readonly Root[]>;
  maxFileBytes: number;
  fetcher(): Promise<Fetcher>;
  allowPrivateNetworks: boolean | readonly string[];
  maxRedirects: number;
  signal: AbortSignal;
}

const bad = (message: string) => new DocmillError(400, 'BAD_REQUEST', message);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const KNOWN = new Set<string>([...ACCEPTED_EXTENSIONS, ...IMAGE_EXTENSIONS]);

/** The URL's last path segment as a file name hint, when it names a format we read. */
function urlFilename(url: string): string | undefined {
  let last: string;
  try {
    last = decodeURIComponent(posix.basename(new URL(url).pathname));
  } catch {
    return undefined;
  }
  return KNOWN.has(extensionOf(last)) ? last : undefined;
}

/** Base64 (standard or URL-safe, whitespace ignored) within the size limit, decoded. */
function decodeData(data: string, maxBytes: number): Uint8Array {
  // 4 characters per 3 bytes: anything longer than the limit's encoding is refused before decoding.
  if (data.length > Math.ceil(maxBytes / 3) * 4 + 1024) {
    throw bad(`data exceeds the maximum size of ${Math.round(maxBytes / (1024 * 1024))}MB.`);
  }
  const compact = data.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (!BASE64.test(compact) || compact.length % 4 === 1) throw bad('data is not valid base64.');
  const buf = Buffer.from(compact, 'base64');
  if (buf.byteLength > maxBytes) {
    throw bad(`data exceeds the maximum size of ${Math.round(maxBytes / (1024 * 1024))}MB.`);
  }
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** Reads the one document a call names: a file inside the roots, a public URL or inline bytes. */
export async function loadSource(args: SourceArgs, ctx: SourceContext): Promise<Loaded> {
  const given = (['path', 'url', 'data'] as const).filter((k) => args[k] !== undefined);
  if (given.length !== 1) {
    throw bad(
      given.length
        ? `Give exactly one of path, url or data, not ${given.join(' and ')}.`
        : 'Give the document as path (a file), url (http/https) or data (base64, with filename).',
    );
  }
  if (args.path !== undefined) {
    const real = await locate(args.path, await ctx.roots());
    const bytes = await readChecked(real, args.path, ctx.maxFileBytes);
    return { bytes, hints: { filename: args.filename ?? basename(real) }, kind: 'path' };
  }
  if (args.data !== undefined) {
    const bytes = decodeData(args.data, ctx.maxFileBytes);
    return { bytes, hints: args.filename ? { filename: args.filename } : {}, kind: 'data' };
  }
  const url = args.url as string;
  const fetcher = await ctx.fetcher();
  const fetched = await fetcher({
    url,
    headers: {},
    signal: ctx.signal,
    skipTlsVerification: false,
    maxBytes: ctx.maxFileBytes,
    maxRedirects: ctx.maxRedirects,
    allowPrivateNetworks: ctx.allowPrivateNetworks,
  });
  if (fetched.status >= 400) throw bad(`${url} answered HTTP ${fetched.status}.`);
  const filename = args.filename ?? urlFilename(fetched.url);
  return {
    bytes: fetched.body,
    hints: {
      sourceURL: fetched.url,
      ...(filename ? { filename } : {}),
      ...(fetched.contentType ? { contentType: fetched.contentType } : {}),
    },
    kind: 'url',
  };
}
