import type { PiiSpan } from './types.ts';

/** What the PEM pass needs of one scanned unit (see redact-tree.ts). */
export interface PemUnit {
  text: string;
  /** Offset of `text` in the string the finder scanned (the unit's context comes first). */
  shift: number;
  /** Paragraph, heading or code block text: only these continue a key block. */
  block: boolean;
}

// A BEGIN line whose END is not in the same text: the key goes on in the following blocks.
const OPEN_BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?![\s\S]*-----END )/;
const END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
// The headers of encrypted PEM ("Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,…").
const HEADER = /^(?:Proc-Type|DEK-Info|Comment):[^\n]*$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Key body: every line base64 (long, or padded, or with digits or + and /: no plain word) or a PEM header. */
function keyBody(text: string): boolean {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.every(
    (l) => HEADER.test(l) || (BASE64.test(l) && (l.length >= 16 || l.endsWith('=') || /[\d+/]/.test(l))),
  );
}
// A 4096-bit key is about 50 lines; a run longer than this is no key body.
const MAX_BODY_BLOCKS = 128;

const secret = (start: number, end: number): PiiSpan => ({
  start,
  end,
  entity: 'SECRET',
  validated: true,
  source: 'pattern',
});

/**
 * A private key whose BEGIN line, base64 body and END line are separate blocks (a DOCX or HTML
 * page with one paragraph per line) is one secret: the blocks after an unclosed BEGIN line are
 * taken whole while they look like key body, and the closing block up to its END line. `found`
 * (spans per unit, in scanned-string offsets) is updated in place. A block that is no key body
 * ends the run, unredacted: a BEGIN line alone never swallows a document.
 */
export function spanPemAcrossBlocks(units: readonly PemUnit[], found: PiiSpan[][]): void {
  for (let i = 0; i < units.length; i++) {
    const open = units[i] as PemUnit;
    if (!open.block || !open.text.includes('-----BEGIN') || !OPEN_BEGIN.test(open.text)) continue;
    const covered: number[] = [];
    let closed = false;
    for (let j = i + 1; j < units.length && covered.length <= MAX_BODY_BLOCKS; j++) {
      const u = units[j] as PemUnit;
      if (!u.block) continue;
      const end = END.exec(u.text);
      if (end) {
        const stop = end.index + end[0].length;
        if (!keyBody(u.text.slice(0, end.index))) break;
        found[j] = [secret(u.shift, u.shift + stop), ...(found[j] ?? []).filter((s) => s.start >= u.shift + stop)];
        closed = true;
        i = j;
        break;
      }
      if (!keyBody(u.text)) break;
      covered.push(j);
    }
    // Without an END the body blocks are still key material when they are all base64.
    if (!closed && covered.length === 0) continue;
    for (const j of covered) {
      const u = units[j] as PemUnit;
      found[j] = [secret(u.shift, u.shift + u.text.length)];
    }
  }
}
