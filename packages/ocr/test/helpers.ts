import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const fixture = (rel: string): Uint8Array =>
  new Uint8Array(readFileSync(fileURLToPath(new URL(`../../../fixtures/${rel}`, import.meta.url))));
