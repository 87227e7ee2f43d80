/**
 * Decoding with a known encoding, apart from charset.ts so that readers that are told their code
 * page (RTF's \ansicpg) do not pull charset guessing and its tables in.
 */

/** cp1252's 0x80–0x9F row (undefined positions map to the C1 control, as browsers do). */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * Decodes with a WHATWG encoding name. Node's `TextDecoder('windows-1252')` decodes as ISO-8859-1
 * (0x80 stays U+0080 instead of €), so that code page is mapped here; the rest goes to ICU.
 */
export function decodeWith(encoding: string, bytes: Uint8Array): string {
  if (encoding !== 'windows-1252') return new TextDecoder(encoding).decode(bytes);
  let out = '';
  const chunk = 8192;
  for (let i = 0; i < bytes.length; i += chunk) {
    const part = bytes.subarray(i, i + chunk);
    const codes = new Array<string>(part.length);
    for (let k = 0; k < part.length; k++) {
      const b = part[k] as number;
      codes[k] = b >= 0x80 && b <= 0x9f ? (CP1252_HIGH[b - 0x80] as string) : String.fromCharCode(b);
    }
    out += codes.join('');
  }
  return out;
}
