import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { badRequest } from '../errors.ts';
import { blockedReason, ipFamily, isAllowed } from './address.ts';
import { fetchFailure, siteFailure } from './failures.ts';
import type { Fetched, Fetcher, FetchRequest } from './types.ts';

/** Resolves a host name to every address it has (injectable for tests and custom DNS). */
export type Resolve = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const refused = (url: URL, ip: string) =>
  badRequest(
    `Refusing to fetch ${url.origin}: it resolves to ${ip} (${blockedReason(ip)}), which is not a public address. ` +
      'The server operator can allow private networks.',
  );

/**
 * The address check lives in the socket's own lookup, so the address that was checked is the one
 * connected to (no window for DNS rebinding between check and connect). Every address a name
 * resolves to must pass, or none is used.
 */
function guardedLookup(url: URL, resolve: Resolve, allow: FetchRequest['allowPrivateNetworks']): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        const bad = all.find((a) => !isAllowed(a.address, allow));
        if (bad) return callback(refused(url, bad.address), '', 4);
        const wanted = all.filter((a) => !options.family || a.family === options.family);
        if (wanted.length === 0)
          return callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
        if (options.all) return (callback as unknown as (e: null, a: typeof wanted) => void)(null, wanted);
        const first = wanted[0] as { address: string; family: number };
        callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 4),
    );
  };
}

interface Response1 {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Readable;
}

function requestOnce(url: URL, req: FetchRequest, resolve: Resolve): Promise<Response1> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Literal IPs never reach a lookup function: check them here.
  if (ipFamily(host) && !isAllowed(host, req.allowPrivateNetworks)) return Promise.reject(refused(url, host));
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((done, fail) => {
    const r = mod.request(
      url,
      {
        method: 'GET',
        headers: {
          'user-agent': 'docmill/0.1 (+https://github.com/docmill)',
          accept: 'text/html,application/xhtml+xml,application/pdf,*/*;q=0.8',
          'accept-encoding': 'gzip, deflate, br',
          ...req.headers,
        },
        lookup: guardedLookup(url, resolve, req.allowPrivateNetworks),
        rejectUnauthorized: !req.skipTlsVerification,
        signal: req.signal,
        agent: false,
      },
      (res) => done({ status: res.statusCode ?? 0, headers: res.headers, body: res }),
    );
    r.once('error', fail);
    r.end();
  });
}

function decoded(res: Response1): Readable {
  const enc = String(res.headers['content-encoding'] ?? '')
    .toLowerCase()
    .trim();
  if (enc === 'gzip' || enc === 'x-gzip') return res.body.pipe(zlib.createGunzip());
  if (enc === 'deflate') return res.body.pipe(zlib.createInflate());
  if (enc === 'br') return res.body.pipe(zlib.createBrotliDecompress());
  return res.body;
}

/** Reads the (decompressed) body, counting bytes so a compressed bomb stops at the limit. */
async function readBody(res: Response1, maxBytes: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  const stream = decoded(res);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.byteLength;
      if (total > maxBytes) {
        throw badRequest(`The fetched document exceeds the maximum size of ${Math.round(maxBytes / 1048576)}MB.`);
      }
      chunks.push(chunk);
    }
  } finally {
    res.body.destroy();
  }
  const out = Buffer.concat(chunks, total);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** GET with capped redirects, the SSRF guard on every hop, TLS verification as asked, size and time limits. */
export function createNodeFetcher(opts: { resolve?: Resolve } = {}): Fetcher {
  const resolve = opts.resolve ?? systemResolve;
  return async (req): Promise<Fetched> => {
    let url = new URL(req.url);
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw badRequest(`Only http and https URLs can be scraped, not ${url.protocol}`);
      }
      let res: Response1;
      try {
        res = await requestOnce(url, req, resolve);
      } catch (err) {
        throw fetchFailure(err, url, req);
      }
      const location = res.headers.location;
      if (REDIRECTS.has(res.status) && location) {
        res.body.resume();
        if (hop >= req.maxRedirects) {
          throw siteFailure(new URL(req.url), `too many redirects (more than ${req.maxRedirects})`);
        }
        url = new URL(location, url);
        continue;
      }
      let body: Uint8Array;
      try {
        body = await readBody(res, req.maxBytes);
      } catch (err) {
        throw fetchFailure(err, url, req);
      }
      const type = res.headers['content-type'];
      return { url: url.href, status: res.status, contentType: type || undefined, body };
    }
  };
}
