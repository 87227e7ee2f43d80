import { describe, expect, it } from 'vitest';
import { attachLinks, type LinkBox } from '../../src/adapters/pdf/links.ts';
import { textRun as run } from '../helpers/text-items.ts';

const box = (x0: number, y0: number, x1: number, y1: number, href: string): LinkBox => ({ x0, y0, x1, y1, href });

describe('PDF link annotations on text runs', () => {
  it('gives each run the link its centre lies in, the first in the page order where two overlap', () => {
    const items = [run('Visit', 72, 100), run('example.org', 108, 100), run('today', 180, 100), run('next', 72, 400)];
    attachLinks(items, [
      box(106, 98, 175, 114, 'https://example.org/'),
      box(100, 90, 300, 120, 'https://other.example/'),
      box(70, 396, 100, 414, 'https://next.example/'),
    ]);
    expect(items.map((it) => it.href)).toEqual([
      undefined,
      'https://example.org/',
      'https://other.example/',
      'https://next.example/',
    ]);
  });

  it('finds a link drawn far past the page and leaves runs alone where a link box is malformed', () => {
    const items = [run('top', 72, 10), run('bottom', 72, 760)];
    attachLinks(items, [
      box(0, -1e9, 612, 1e9, 'https://all.example/'),
      box(0, Number.NaN, 612, 800, 'https://nan.example/'),
    ]);
    expect(items.map((it) => it.href)).toEqual(['https://all.example/', 'https://all.example/']);
  });
});
