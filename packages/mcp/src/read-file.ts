import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { DocmillError } from '@docmill/core';

const bad = (message: string) => new DocmillError(400, 'BAD_REQUEST', message);

/**
 * Reads a file that `locate` has checked, without following a link swapped in since (O_NOFOLLOW),
 * without blocking on a FIFO or device (O_NONBLOCK, then only regular files are read), and never
 * more than `maxBytes`. The opened file must still be the one at the checked path.
 */
export async function readChecked(real: string, shown: string, maxBytes: number): Promise<Uint8Array> {
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    throw bad(`Cannot open ${shown} (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw bad(`${shown} is a folder: pass one file.`);
    if (!st.isFile()) throw bad(`${shown} is not a regular file.`);
    const now = await stat(real).catch(() => undefined);
    if (!now || now.ino !== st.ino || now.dev !== st.dev) throw bad(`${shown} changed while it was opened.`);
    const tooBig = () => bad(`${shown} exceeds the maximum size of ${Math.round(maxBytes / (1024 * 1024))}MB.`);
    if (st.size > maxBytes) throw tooBig();
    // One byte more than expected: a file that grows while it is read is noticed, never cut silently.
    const cap = Math.min(maxBytes, st.size) + 1;
    const buf = Buffer.allocUnsafe(cap);
    let filled = 0;
    while (filled < cap) {
      const { bytesRead } = await fh.read(buf, filled, cap - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled === cap) throw cap > maxBytes ? tooBig() : bad(`${shown} grew while it was read.`);
    return new Uint8Array(buf.buffer, buf.byteOffset, filled);
  } finally {
    await fh.close();
  }
}
