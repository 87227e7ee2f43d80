import { badInput } from '../errors.ts';
import { type Decoded, decodeText } from './charset.ts';

/** Characters inspected for control-character noise; binary files show it from the start. */
const PROBE = 8192;

/**
 * Decodes a text file (byte-order mark, then the `declared` label, then what the bytes look like)
 * and refuses binary data. A NUL survives decoding only when the bytes were not text in the
 * detected encoding (UTF-16 NULs are absorbed into code units), so one is proof enough. `what`
 * names the format in the error ("CSV text file").
 */
export function decodeTextFile(bytes: Uint8Array, what: string, declared?: string): Decoded {
  const decoded = decodeText(bytes, declared);
  const { text } = decoded;
  if (text.includes('\u0000')) {
    throw badInput(`The file contains binary data (NUL bytes) and is not a readable ${what}.`);
  }
  const n = Math.min(text.length, PROBE);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x09 || (c > 0x0d && c < 0x20 && c !== 0x1b)) control++;
  }
  if (control > n * 0.05) {
    throw badInput(`The file is mostly control characters (binary data) and is not a readable ${what}.`);
  }
  return decoded;
}
