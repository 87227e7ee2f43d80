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

/**
 * Why a password-protected document did not open: no password was given (`required`), or the one
 * given does not open it (`incorrect`). Surfaces read it to ask for the password (a prompt, a flag).
 */
export type PasswordProblem = 'required' | 'incorrect';

export interface DocmillErrorOptions {
  cause?: unknown;
  details?: unknown[];
  password?: PasswordProblem;
}

export class DocmillError extends Error {
  override readonly name = 'DocmillError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: unknown[] | undefined;
  /** Set when the document is password-protected and did not open: see PasswordProblem. */
  readonly password?: PasswordProblem;

  constructor(status: number, code: ErrorCode, message: string, options?: DocmillErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.code = code;
    this.details = options?.details;
    if (options?.password) this.password = options.password;
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

/**
 * How a caller of the library gives a password; CLI and HTTP name their own way through
 * withPasswordHint.
 */
export const LIBRARY_PASSWORD_HINT = 'in hints.password';

const hintSentence = (problem: PasswordProblem, how: string): string =>
  problem === 'required' ? `Pass its password ${how}.` : `Pass the right one ${how}.`;

/**
 * The 400 of every password-protected document that did not open, whatever its format: `what` names
 * it ("The PDF"), `given` is the caller's password (undefined when none was given). The message
 * says which of the two happened and how a library caller passes the password.
 */
export function passwordError(what: string, given: string | undefined, cause?: unknown): DocmillError {
  const problem: PasswordProblem = given === undefined ? 'required' : 'incorrect';
  const said =
    problem === 'required'
      ? `${what} is password-protected and cannot be read without its password.`
      : `${what} is password-protected and the password given does not open it.`;
  return new DocmillError(400, 'BAD_REQUEST', `${said} ${hintSentence(problem, LIBRARY_PASSWORD_HINT)}`, {
    cause,
    password: problem,
  });
}

/**
 * The same error with the way to give a password named as the surface the caller uses
 * (`with --password`); any other error is returned as it is. Works on errors rebuilt from a worker
 * or a queue, which keep their message and `password` but not their identity.
 */
export function withPasswordHint<E>(err: E, how: string): E | DocmillError {
  if (!(err instanceof DocmillError) || !err.password) return err;
  const library = hintSentence(err.password, LIBRARY_PASSWORD_HINT);
  const said = err.message.endsWith(library) ? err.message.slice(0, -library.length).trimEnd() : err.message;
  return new DocmillError(err.status, err.code, `${said} ${hintSentence(err.password, how)}`, {
    cause: err.cause,
    ...(err.details ? { details: err.details } : {}),
    password: err.password,
  });
}

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
