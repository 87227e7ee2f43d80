import { expect } from 'vitest';
import { DocmillError } from '../../src/index.ts';

/** The DocmillError a promise rejects with; fails the test if it resolves or throws anything else. */
export async function errorOf(p: Promise<unknown>): Promise<DocmillError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(DocmillError);
    return err as DocmillError;
  }
  throw new Error('expected a DocmillError');
}
