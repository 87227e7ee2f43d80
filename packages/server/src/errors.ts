import { DocmillError } from '@docmill/core';

/**
 * Error bodies of the contract (parse-api.md §7) and the compat notes. Validation-type failures are
 * DocmillErrors from core (status + code); the statuses core has no code for (401, 402, 404, 429)
 * carry only `success: false` and `error`, as the hosted service sends them.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: 401 | 402 | 404 | 429 | 503,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toJSON(): { success: false; error: string } {
    return { success: false, error: this.message };
  }
}

export const MISSING_FILE =
  "Missing file upload. Send multipart/form-data with a 'file' field and optional 'options' JSON string.";
export const INVALID_OPTIONS_JSON = "Invalid JSON in the 'options' field. Provide a valid JSON string.";
export const OPTIONS_NOT_OBJECT = "The 'options' field must parse to a JSON object.";

/**
 * How an HTTP client gives the password of an encrypted document, named in its 400 (withPasswordHint):
 * with the upload, or, for a scraped file, by uploading it.
 */
export const PARSE_PASSWORD_HINT = "in the multipart field 'password' (or the X-Docmill-Password header)";
export const SCRAPE_PASSWORD_HINT = "by uploading the file to POST /v2/parse with the multipart field 'password'";

export const badRequest = (message: string): DocmillError => new DocmillError(400, 'BAD_REQUEST', message);

export const fileTooLarge = (maxBytes: number): DocmillError =>
  badRequest(`Uploaded file exceeds maximum size of ${Math.round(maxBytes / (1024 * 1024))}MB.`);

/** The 500 body never carries internals: the id ties it to the log line that does. */
export const unknownError = (errorId: string): DocmillError =>
  new DocmillError(
    500,
    'UNKNOWN_ERROR',
    `An unexpected error occurred. Please contact the operator with error id ${errorId}.`,
  );

export type ScrapeFailureCode = 'SCRAPE_DNS_RESOLUTION_ERROR' | 'SCRAPE_SSL_ERROR' | 'SCRAPE_SITE_ERROR';

/**
 * A page that could not be fetched, with the status and code the hosted `/v2/scrape` answers:
 * a name that does not resolve is 200 with `success: false`, TLS and site failures are 500 with
 * their code (not the anonymous UNKNOWN_ERROR: the message says what went wrong with the site).
 */
export class ScrapeFailure extends Error {
  override readonly name = 'ScrapeFailure';
  constructor(
    readonly status: 200 | 500,
    readonly code: ScrapeFailureCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  toJSON(): { success: false; code: ScrapeFailureCode; error: string } {
    return { success: false, code: this.code, error: this.message };
  }
}
