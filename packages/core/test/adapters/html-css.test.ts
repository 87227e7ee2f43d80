import { describe, expect, it } from 'vitest';
import { MAX_CSS, parseCss, parseDeclarations } from '../../src/adapters/html/css.ts';

describe('html css: the font subset', () => {
  it('reads sizes in every unit and weights, keyword and numeric', () => {
    expect(parseDeclarations('font-size: 18pt; font-weight: bold')).toEqual({ size: { px: 24 }, bold: true });
    expect(parseDeclarations('font-size:1.5em;font-weight:400')).toEqual({ size: { factor: 1.5 }, bold: false });
    expect(parseDeclarations('font-size: 120% !important')).toEqual({ size: { factor: 1.2 } });
    expect(parseDeclarations('font-size: x-large; font-weight: 700')).toEqual({ size: { px: 24 }, bold: true });
    expect(parseDeclarations('font: italic bold 12pt/1.4 Georgia, serif')).toEqual({ size: { px: 16 }, bold: true });
    expect(parseDeclarations('font-size: calc(1em + 2px); font-weight: heavy')).toEqual({});
  });
  it('keeps simple selectors with their specificity and skips at-rules and combinators', () => {
    const rules = parseCss(`
      /* comment { font-size: 99pt } */
      @font-face { font-family: X; src: url(x.ttf); }
      @media print { .a { font-size: 40pt } }
      p.para2, .span2 { font-size: 18pt; font-weight: bold; }
      div > span, a:hover, [lang] { font-weight: bold }
      #main { font-size: 10px }
      .nothing { color: red }
    `);
    expect(rules.map((r) => [r.tag, r.classes, r.id])).toEqual([
      ['P', ['para2'], undefined],
      [undefined, ['span2'], undefined],
      [undefined, [], 'main'],
    ]);
    const [p, span, id] = rules as [(typeof rules)[0], (typeof rules)[0], (typeof rules)[0]];
    expect(p.rank).toBeGreaterThan(span.rank);
    expect(id.rank).toBeGreaterThan(p.rank);
  });
  it('is bounded: input cut at MAX_CSS, unterminated blocks and comments end the scan', () => {
    const big = `.x{font-size:20px}${' '.repeat(MAX_CSS)}.y{font-size:30px}`;
    expect(parseCss(big).map((r) => r.classes[0])).toEqual(['x']);
    expect(parseCss('.a{font-size:20px} /* never closed .b{font-size:30px}')).toHaveLength(1);
    expect(parseCss('@media x { .a { font-size: 20px }').length).toBe(0);
    expect(parseCss('.a{font-size:20px').length).toBe(1);
  });
});
