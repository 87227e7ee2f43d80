/**
 * Every failure the engine reports is a DocmillError carrying the HTTP status and `code` of the
 * hosted contract, so the HTTP adapter and the CLI only serialize it.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'PARSE_UNSUPPORTED_OPTIONS'
  | 'UNSUPPORTED_FILE_TYPE'
  | 'SCRAPE_TIMEOUT'
  | 'UNKNOWN_ERROR';

export interface ErrorBody {
  success: false;
  code: ErrorCode;
  error: string;
  details?: unknown[];
}

export class DocmillError extends Error {
  override readonly name = 'DocmillError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: unknown[] | undefined;

  constructor(status: number, code: ErrorCode, message: string, options?: { cause?: unknown; details?: unknown[] }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.code = code;
    this.details = options?.details;
  }

  toJSON(): ErrorBody {
    const body: ErrorBody = { success: false, code: this.code, error: this.message };
    if (this.details?.length) body.details = this.details;
    return body;
  }
}

/** 400 for a document we cannot read: damaged, encrypted, over a limit. */
export const badInput = (message: string, cause?: unknown): DocmillError =>
  new DocmillError(400, 'BAD_REQUEST', message, { cause });

export const timeoutError = (ms: number): DocmillError =>
  new DocmillError(408, 'SCRAPE_TIMEOUT', `Parsing did not finish within the ${ms} ms timeout.`);

/** Normalizes anything thrown into a DocmillError; unknown failures become 500 UNKNOWN_ERROR. */
export function toDocmillError(err: unknown): DocmillError {
  if (err instanceof DocmillError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  return new DocmillError(500, 'UNKNOWN_ERROR', `An unexpected error occurred. ${detail}`.trim(), { cause: err });
}

/** Throws the abort reason (a DocmillError for timeouts) when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw signal.reason instanceof Error
      ? signal.reason
      : new DocmillError(408, 'SCRAPE_TIMEOUT', 'Parsing was aborted.');
  }
}
