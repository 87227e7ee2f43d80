import { badInput, DocmillError, passwordError } from '../../../errors.ts';

/** The 400 every backend gives for an encrypted file the password (or its absence) does not open. */
export const pdfPasswordError = (given: string | undefined, cause?: unknown): DocmillError =>
  passwordError('The PDF', given, cause);

/** The 400 for a file no backend could open. */
export const damagedError = (detail: string, cause?: unknown): DocmillError =>
  badInput(`The PDF is damaged and could not be read (${detail}).`, cause);

/** Whether an open failure was the password one (no other backend will do better). */
export const isPasswordError = (err: unknown): boolean => err instanceof DocmillError && err.password !== undefined;
