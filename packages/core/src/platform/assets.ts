import { isNode } from './index.ts';

/**
 * Reads a file shipped inside an installed package (a wasm binary), in Node only. Browsers get
 * `undefined` and load such assets by URL, which bundlers rewrite. The Node modules are imported
 * through variables so that browser bundlers never try to resolve them.
 */
export async function readPackageAsset(specifier: string): Promise<Uint8Array | undefined> {
  if (!isNode) return undefined;
  const moduleId = 'node:module';
  const fsId = 'node:fs/promises';
  const { createRequire } = (await import(/* @vite-ignore */ moduleId)) as typeof import('node:module');
  const { readFile } = (await import(/* @vite-ignore */ fsId)) as typeof import('node:fs/promises');
  const path = createRequire(import.meta.url).resolve(specifier);
  const buf = await readFile(path);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}
