import { DocmillError } from '@docmill/core';
import { ScrapeFailure } from '../errors.ts';

/** getaddrinfo's answers for a name that does not resolve (or a resolver that cannot be reached). */
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);

/** OpenSSL's certificate verdicts as Node reports them, beside its ERR_TLS_* / ERR_SSL_* codes. */
const CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'HOSTNAME_MISMATCH',
  // A TLS handshake with something that does not speak TLS ("wrong version number").
  'EPROTO',
]);

const SITE_EXPLANATIONS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (nothing accepts connections on that port)',
  ECONNRESET: 'the server reset the connection',
  ECONNABORTED: 'the connection was aborted',
  EPIPE: 'the server closed the connection while the request was sent',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable from this server',
  ENETUNREACH: 'the network of that host is unreachable from this server',
  ERR_STREAM_PREMATURE_CLOSE: 'the server closed the connection before the whole page arrived',
};

const codeOf = (err: unknown): string | undefined => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

const isTlsCode = (code: string) =>
  CERT_CODES.has(code) || code.startsWith('CERT_') || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_');

function explain(err: unknown, code: string | undefined): string {
  if (code?.startsWith('HPE_')) return 'the server sent a malformed HTTP response';
  if (code && SITE_EXPLANATIONS[code]) return SITE_EXPLANATIONS[code];
  const message = err instanceof Error ? err.message : String(err);
  return message || 'the page could not be loaded';
}

/**
 * What a failed fetch of `url` means for the caller: our own refusals (SSRF guard, size limit) and
 * the deadline pass through unchanged; network failures become the hosted service's scrape codes.
 */
export function fetchFailure(err: unknown, url: URL, opts: { signal: AbortSignal; skipTlsVerification: boolean }) {
  if (err instanceof DocmillError || err instanceof ScrapeFailure) return err;
  if (opts.signal.aborted) {
    const reason = opts.signal.reason;
    return reason instanceof DocmillError
      ? reason
      : new DocmillError(408, 'SCRAPE_TIMEOUT', 'The request was cancelled before the page was fetched.');
  }
  const code = codeOf(err);
  if (code && DNS_CODES.has(code)) {
    return new ScrapeFailure(
      200,
      'SCRAPE_DNS_RESOLUTION_ERROR',
      `DNS resolution failed for the host name "${url.hostname}" (${code}): the name may be misspelled or ` +
        'not exist, or no DNS server answered this server. Check the URL.',
      { cause: err },
    );
  }
  if (code && isTlsCode(code)) {
    const detail = err instanceof Error && err.message && !err.message.includes(code) ? `: ${err.message}` : '';
    return new ScrapeFailure(
      500,
      'SCRAPE_SSL_ERROR',
      `TLS failed while connecting to ${url.origin} (${code}${detail}). ` +
        (opts.skipTlsVerification
          ? 'Certificate verification was already off, so the TLS setup of the site itself is broken; try its http:// address.'
          : 'Its certificate could not be verified (self-signed, expired or issued for another name); ' +
            'if you trust the site, set skipTlsVerification: true.'),
      { cause: err },
    );
  }
  return siteFailure(url, `${explain(err, code)}${code ? ` (${code})` : ''}`, err);
}

/** The site answered in a way that gives no page: refused, reset, malformed, endless redirects. */
export const siteFailure = (url: URL, why: string, cause?: unknown) =>
  new ScrapeFailure(500, 'SCRAPE_SITE_ERROR', `${url.href} could not be loaded: ${why}.`, { cause });
