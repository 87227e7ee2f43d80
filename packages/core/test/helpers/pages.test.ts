import { describe, expect, it } from 'vitest';
import { renderMarkdownWithSpans } from '../../src/render/markdown.ts';
import { paragraph, root, section } from '../../src/tree/build.ts';
import { pagesOf } from './pages.ts';

/** The Markdown, with page markers, of pages holding these paragraphs ('' for an empty page). */
const rendered = (texts: string[]): string =>
  renderMarkdownWithSpans(root(texts.map((t, i) => section('page', i + 1, t ? [paragraph(t)] : []))), {
    pageMarkers: true,
  }).markdown;

describe('pagesOf: each page by its own number', () => {
  it('keeps the pages after an empty one in their places', () => {
    // Split at whole separators, the empty page 2 took page 3's text (its marker included).
    expect(pagesOf(rendered(['One.', '', 'Three.', 'Four.']))).toEqual(['One.', '', 'Three.', 'Four.']);
  });

  it('gives the first page with text after empty ones its marker, without the rule', () => {
    // Without it the Markdown opened with page 3's text and no marker: a reader took it for page 1.
    expect(rendered(['', '', 'Three.', 'Four.'])).toBe(
      '<!-- page 3 -->\n\nThree.\n\n---\n\n<!-- page 4 -->\n\nFour.\n',
    );
    expect(rendered(['One.', '', 'Three.'])).toBe(
      'One.\n\n---\n\n<!-- page 2 -->\n\n---\n\n<!-- page 3 -->\n\nThree.\n',
    );
  });

  it('reads empty pages at the start and at the end', () => {
    expect(pagesOf(rendered(['', '', 'Three.', 'Four.', '']))).toEqual(['', '', 'Three.', 'Four.', '']);
    expect(pagesOf(rendered(['One.']))).toEqual(['One.']);
  });
});
