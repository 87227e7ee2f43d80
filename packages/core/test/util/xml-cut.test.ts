import { describe, expect, it } from 'vitest';
import { closeCutXml } from '../../src/util/xml-cut.ts';

describe('closeCutXml', () => {
  it('keeps the text up to the cut and closes what is open, innermost first', () => {
    expect(closeCutXml('<?xml version="1.0"?><w:document><w:body><w:p><w:r><w:t>Hello wor')).toBe(
      '<?xml version="1.0"?><w:document><w:body><w:p><w:r><w:t>Hello wor</w:t></w:r></w:p></w:body></w:document>',
    );
  });

  it('drops a tag, comment, CDATA section or reference cut in two', () => {
    expect(closeCutXml('<a><b x="1"/><c>text &am')).toBe('<a><b x="1"/><c>text </c></a>');
    expect(closeCutXml('<a><b>one</b><c attr="x')).toBe('<a><b>one</b></a>');
    expect(closeCutXml('<a><b>one</b><!-- a > b')).toBe('<a><b>one</b></a>');
    expect(closeCutXml('<a><![CDATA[ab')).toBe('<a></a>');
  });

  it('leaves a whole document as it is', () => {
    const whole = '<a><b>one</b><!-- note --><c/></a>';
    expect(closeCutXml(whole)).toBe(whole);
  });
});
