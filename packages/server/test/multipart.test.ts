import type { DocmillError } from '@docmill/core';
import { describe, expect, it } from 'vitest';
import {
  MAX_PART_HEADER_BYTES,
  MAX_PARTS,
  MultipartParser,
  type PartHeaders,
  parseParams,
} from '../src/multipart-parser.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

interface Part {
  headers: PartHeaders;
  body: string;
}

/** Feeds `body` in pieces of the given sizes (cycled) and returns the parts as they came out. */
function parse(boundary: string, body: Uint8Array | string, sizes: number[] = [body.length]): Part[] {
  const bytes = typeof body === 'string' ? enc.encode(body) : body;
  const parts: Part[] = [];
  let chunks: Uint8Array[] = [];
  const parser = new MultipartParser(boundary, {
    part(headers) {
      chunks = [];
      parts.push({ headers, body: '' });
    },
    data(b) {
      chunks.push(b.slice());
    },
    end() {
      const last = parts.at(-1) as Part;
      last.body = dec.decode(Buffer.concat(chunks));
    },
  });
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = Math.max(1, sizes[i % sizes.length] as number);
    parser.push(bytes.subarray(at, at + n));
    at += n;
  }
  parser.end();
  return parts;
}

const failure = (fn: () => unknown): DocmillError => {
  try {
    fn();
  } catch (err) {
    return err as DocmillError;
  }
  throw new Error('expected an error');
};

describe('incremental multipart parser', () => {
  it('gives the same parts as the platform FormData for the same body, however it is chunked', async () => {
    const fd = new FormData();
    fd.append('options', '{"formats":["markdown"]}');
    fd.append('file', new Blob(['line 1\r\n--not-a-boundary\r\n\r\n\r\n--', 'x'.repeat(70_000)]), 'a b.pdf');
    fd.append('empty', '');
    const req = new Request('http://x/', { method: 'POST', body: fd });
    const boundary = /boundary=(.+)$/.exec(req.headers.get('content-type') as string)?.[1] as string;
    const body = new Uint8Array(await req.arrayBuffer());
    const expected = [
      ['options', undefined, '{"formats":["markdown"]}'],
      ['file', 'a b.pdf', `line 1\r\n--not-a-boundary\r\n\r\n\r\n--${'x'.repeat(70_000)}`],
      ['empty', undefined, ''],
    ];
    for (const sizes of [[body.length], [1], [2, 3, 5, 7], [boundary.length + 3], [4096], [1, 65_536]]) {
      const parts = parse(boundary, body, sizes);
      expect(
        parts.map((p) => [p.headers.name, p.headers.filename, p.body]),
        String(sizes),
      ).toEqual(expected);
    }
  });

  it('takes boundary text that is not preceded by CRLF, or followed by more than padding and CRLF, as content', () => {
    const body =
      '--b0undary\r\nContent-Disposition: form-data; name="file"; filename="x.txt"\r\n\r\n' +
      'before--b0undary after\r\n--b0undaryX still content\r\n--b0undary-\r\nend' +
      '\r\n--b0undary  \t\r\nContent-Disposition: form-data; name="next"\r\n\r\nv\r\n--b0undary--\r\nepilogue';
    for (const sizes of [[1000], [1], [3]]) {
      const parts = parse('b0undary', body, sizes);
      expect(parts.map((p) => [p.headers.name, p.body])).toEqual([
        ['file', 'before--b0undary after\r\n--b0undaryX still content\r\n--b0undary-\r\nend'],
        ['next', 'v'],
      ]);
    }
  });

  it('reads filename* (RFC 5987) before filename, and quoted names with escapes', () => {
    const body =
      '--b\r\nContent-Disposition: form-data; name="file"; filename="fallback.pdf"; ' +
      "filename*=UTF-8''%E2%82%AC%20rates%20%C3%A9t%C3%A9.pdf\r\nContent-Type: application/pdf\r\n\r\n%PDF\r\n--b--";
    const [part] = parse('b', body);
    expect(part?.headers).toEqual({ name: 'file', filename: '€ rates été.pdf', contentType: 'application/pdf' });
    expect(parseParams('form-data; name=file; filename="a \\"quoted\\" C:\\dir\\b.pdf"')).toEqual(
      new Map([
        ['name', 'file'],
        ['filename', 'a "quoted" C:\\dir\\b.pdf'],
      ]),
    );
    expect(parseParams('form-data; name="f"; filename*=iso-8859-1\'en\'%E9t%E9.txt').get('filename*')).toBe('été.txt');
    // An unknown charset leaves filename* out (the plain filename, if any, is used).
    expect(parseParams('form-data; filename="a.pdf"; filename*=koi8-r\'\'%C1.pdf').get('filename*')).toBeUndefined();
  });

  it(`refuses part ${MAX_PARTS + 1} and a header block over ${MAX_PART_HEADER_BYTES} bytes, naming the limit`, () => {
    const part = '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n';
    expect(parse('b', `${part.repeat(MAX_PARTS)}--b--`)).toHaveLength(MAX_PARTS);
    const many = failure(() => parse('b', `${part.repeat(MAX_PARTS + 1)}--b--`, [17]));
    expect([many.status, many.code, many.message]).toEqual([
      400,
      'BAD_REQUEST',
      `The form has more than ${MAX_PARTS} parts (the limit).`,
    ]);
    const name = 'n'.repeat(MAX_PART_HEADER_BYTES);
    const long = failure(() =>
      parse('b', `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\nv\r\n--b--`, [999]),
    );
    expect(long.message).toBe(`A part's headers exceed ${MAX_PART_HEADER_BYTES} bytes (the limit).`);
  });

  it('refuses a body that ends before its closing boundary', () => {
    const cut = failure(() => parse('b', '--b\r\nContent-Disposition: form-data; name="file"\r\n\r\n%PDF-1.4 no end'));
    expect(cut.message).toMatch(/^Invalid multipart\/form-data body: it ends before its closing boundary/);
  });
});
