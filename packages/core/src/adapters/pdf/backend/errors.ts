import { badInput, type DocmillError } from '../../../errors.ts';

/** The 400 every backend gives for an encrypted file it cannot open. */
export const passwordError = (cause?: unknown): DocmillError =>
  badInput('The PDF is password-protected; docmill cannot open encrypted documents without the password.', cause);

/** The 400 for a file no backend could open. */
export const damagedError = (detail: string, cause?: unknown): DocmillError =>
  badInput(`The PDF is damaged and could not be read (${detail}).`, cause);

/** Whether an open failure was the password one (no other backend will do better). */
export const isPasswordError = (err: unknown): boolean =>
  err instanceof Error && err.message.startsWith('The PDF is password-protected');
