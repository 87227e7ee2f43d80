import { describe, expect, it, vi } from 'vitest';
import { parse } from '../../src/index.ts';
import { fixture } from '../helpers/corpus.ts';

/**
 * Core as a browser bundle sees it: `#html-dom` under the `browser` condition (no parse5, no
 * linkedom) and no `DOMParser`, as in a Web Worker. HTML fails with a 500 that names the fix until
 * the worker installs the backend, then parses as in Node.
 */
vi.mock('#html-dom', () => import('../../src/adapters/html/dom-browser.ts'));

type Backend = typeof import('../../src/adapters/html/dom-parse5.ts');

describe('html without DOMParser or a built-in backend (a browser Web Worker)', () => {
  it('fails with a 500 naming installHtmlDom, then parses once it is installed', async () => {
    const bytes = fixture('html', 'malformed-table.html');
    const err = await parse(bytes, {}, { filename: 'page.html' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 500, code: 'UNKNOWN_ERROR' });
    expect((err as Error).message).toContain("installHtmlDom() from '@docmill/core/html-dom'");
    // EPUB chapters go through the same parser.
    const book = await parse(fixture('epub', 'basic.epub'), {}, { filename: 'book.epub' }).catch((e: unknown) => e);
    expect(book).toMatchObject({ status: 500 });

    const { installHtmlDom } = await vi.importActual<Backend>('../../src/adapters/html/dom-parse5.ts');
    installHtmlDom();
    const md = (await parse(bytes, {}, { filename: 'page.html' })).markdown;
    expect(md).toContain('| 0.05 | 0.20 | 0.40 | 21.5 | 61.0 | 9.0 | 3.9 |');
    expect(md).toContain('Balance **nickel**.');
  });
});
