import type { Decoded } from '../../util/charset.ts';
import { decodeTextFile } from '../../util/text-file.ts';

/** Decodes the file and refuses binary data (see decodeTextFile). */
export function decodeCsv(bytes: Uint8Array): Decoded {
  return decodeTextFile(bytes, 'CSV text file');
}
