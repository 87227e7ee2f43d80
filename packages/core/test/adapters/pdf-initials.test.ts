import { describe, expect, it } from 'vitest';
import { corpusFile, hasCorpus } from '../helpers/corpus.ts';
import { engineFor, pageMarkdown, pdfBackends } from '../helpers/pdf-backends.ts';
import { textAt } from '../helpers/pdf-build.ts';
import { NO_DEADLINE } from '../helpers/timeouts.ts';

/**
 * A name's initial opening a line ("J. Smith", "O. would not be standing here", a running head's
 * "Z. Shen et al.") read as a lettered list's item: the line became "- J. Smith", cut from its
 * sentence. A capital letter marks an item where a neighbouring item carries the letter before or
 * after it ("A. Scope" over "B. Terms"); roman figures ("I.", "V.") keep marking items alone.
 */
const PROSE = 'Every office sent its figures on time this year, and the totals include all of them.';

describe.each(pdfBackends)('initials opening a line (%s)', (backend) => {
  it("reads a name's initial opening a line as text, in its sentence", async () => {
    const md = await pageMarkdown(backend, [
      textAt(72, 720, 'Header', 18, 'F2'),
      textAt(72, 690, 'This report was written by'),
      textAt(72, 676, 'J. Smith and checked by the board before it went out.'),
      textAt(72, 650, PROSE),
    ]);
    expect(md).toContain('This report was written by J. Smith and checked by the board before it went out.');
    expect(md).not.toMatch(/^- /m);
  });

  it('reads lettered items in sequence as a list, each letter kept', async () => {
    const md = await pageMarkdown(backend, [
      textAt(72, 720, 'Header', 18, 'F2'),
      textAt(72, 690, 'The contract has three parts:'),
      textAt(72, 670, 'A. Scope of the work and its places'),
      textAt(72, 656, 'B. Terms of payment'),
      textAt(72, 642, 'C. Notes on delivery'),
      textAt(72, 612, PROSE),
    ]);
    expect(md).toContain('- A. Scope of the work and its places\n- B. Terms of payment\n- C. Notes on delivery');
  });

  it('keeps lettered clauses a list when each runs on over many lines', async () => {
    const ops = [textAt(72, 740, 'Header', 18, 'F2')];
    let y = 712;
    for (const letter of ['A', 'B']) {
      ops.push(textAt(72, y, `${letter}. The supplier shall deliver the goods to the places the buyer names, and`));
      y -= 14;
      for (let i = 0; i < 15; i++) {
        ops.push(
          textAt(86, y, `shall keep them insured until they are signed for at each place, clause ${letter}${i},`),
        );
        y -= 14;
      }
      ops.push(textAt(86, y, 'as the schedule sets out.'));
      y -= 20;
    }
    const md = await pageMarkdown(backend, ops);
    expect(md).toMatch(/^- A\. The supplier/m);
    expect(md).toMatch(/^- B\. The supplier/m);
  });

  it.skipIf(!hasCorpus)("reads GAO's contact line, its name opening with an initial, as text", async () => {
    const name = 'unstructured_pdf_invalid-pdf-structure-pdfminer-one-page.pdf';
    const md = (await engineFor(backend).parse(corpusFile('pdfbench', name), NO_DEADLINE, { filename: name })).markdown;
    expect(md).toMatch(/^\[?A\. Nicole Clowers/m);
    expect(md).not.toMatch(/^- .*Nicole Clowers/m);
  });
});
