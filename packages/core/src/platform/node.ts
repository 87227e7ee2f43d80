// The platform seam is where core meets Node: its Node modules need Node's types in the package
// build (which otherwise has none, `types: []`). They used to arrive unnoticed with jszip's typings.
/// <reference types="node" />
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ParseHints } from '../engine.ts';

/** Node helper for hosts: reads a file and returns the bytes with a filename hint. */
export async function readFileInput(path: string): Promise<{ bytes: Uint8Array; hints: ParseHints }> {
  const buf = await readFile(path);
  return { bytes: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), hints: { filename: basename(path) } };
}
