import { describe, expect, it } from 'vitest';
import { absolutize } from '../../src/render/links.ts';

describe('links renderer', () => {
  it('drops script URLs however they are disguised, as a browser would still run them', () => {
    for (const href of ['javascript:alert(1)', 'java\tscript:alert(1)', 'java\nscript:x', '\u0001 JavaScript:x'])
      expect(absolutize(href, 'https://a.example/'), JSON.stringify(href)).toBeUndefined();
    expect(absolutize('guide', 'https://a.example/docs/')).toBe('https://a.example/docs/guide');
    expect(absolutize('mailto:x@a.example')).toBe('mailto:x@a.example');
  });
});
