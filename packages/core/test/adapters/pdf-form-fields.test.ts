import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pdfOf } from '../helpers/pdf-build.ts';

/** The text of the line of Markdown holding `label` (a paragraph's or a table row's). */
const lineOf = (md: string, label: string): string => md.split('\n').find((l) => l.includes(label)) ?? '';

describe.each(pdfBackends)('pdf form fields: a filled form reads with its values (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it.each(['fast', 'auto'] as const)(
    'puts each value beside its label, ticks as ☒ and ☐, nothing masked (%s)',
    async (mode) => {
      const options = { parsers: [{ type: 'pdf' as const, mode }] };
      const md =
        (await parse(fixture('pdf-patterns', 'form-fields.pdf'), options, { filename: 'form.pdf' })).markdown ?? '';
      // A value on its field (its widget a kid) with an appearance, one without, a drop-down's label.
      expect(lineOf(md, 'Name:')).toMatch(/Name:.*Jane Fairweather/);
      expect(lineOf(md, 'City:')).toMatch(/City:.*Leeds/);
      expect(lineOf(md, 'Colour:')).toMatch(/Colour:.*Blue/);
      // Ticks: a box ticked and one not; a radio group's chosen option.
      expect(lineOf(md, 'Member:')).toMatch(/Member:.*☒.*Newsletter:.*☐/);
      expect(lineOf(md, 'Plan:')).toMatch(/Plan:.*☐.*Monthly.*☒.*Annual/);
      // A field of several lines: both, in order.
      expect(lineOf(md, 'Comments:')).toMatch(/Comments:.*Arrives late\..*Needs parking\./);
      // What no viewer shows: a password, a hidden field.
      expect(md).not.toContain('hunter2');
      expect(md).not.toContain('Hidden reviewer note');
      expect(md).toContain('Signed on receipt of the fee.');
    },
  );

  it('reads the same Markdown on both backends', async () => {
    const options = { parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] };
    const other = engineFor(backend === 'pdfium' ? 'pdfjs' : 'pdfium');
    const bytes = fixture('pdf-patterns', 'form-fields.pdf');
    const [a, b] = await Promise.all([
      parse(bytes, options, { filename: 'form.pdf' }),
      other.parse(bytes, options, { filename: 'form.pdf' }),
    ]);
    expect(a.markdown).toBe(b.markdown);
  });

  it('reads at most 2,000 widgets a page, and a field value over a million characters as none', async () => {
    // One field holding 1,100,000 characters, then 50 rows of 50 text fields (v0 … v2499): the long
    // one counts among the 2,000 read, and shows nothing.
    const widgets: string[] = [];
    for (let r = 0; r < 50; r++)
      for (let c = 0; c < 50; c++) {
        const x = 20 + c * 11.5;
        const y = 760 - r * 15;
        widgets.push(
          `<< /Type /Annot /Subtype /Widget /FT /Tx /T (f${r * 50 + c}) /V (v${r * 50 + c}) /Rect [${x} ${y} ${x + 11} ${y + 12}] /F 4 /DA (/Helv 5 Tf 0 g) >>`,
        );
      }
    const huge = `<< /Type /Annot /Subtype /Widget /FT /Tx /T (huge) /V (${'w'.repeat(1_100_000)}) /Rect [20 2 300 14] /F 4 /DA (/Helv 5 Tf 0 g) >>`;
    const first = 5;
    const annots = [huge, ...widgets];
    const refs = annots.map((_, k) => `${first + k} 0 R`).join(' ');
    const bytes = pdfOf([
      `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [${refs}] /DA (/Helv 0 Tf 0 g) >> >>`,
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Annots [${refs}] >>`,
      '<< /Length 0 >>\nstream\n\nendstream',
      ...annots,
    ]);
    const md =
      (await parse(bytes, { parsers: [{ type: 'pdf', mode: 'fast' }] }, { filename: 'many.pdf' })).markdown ?? '';
    const values = md.match(/\bv\d+\b/g) ?? [];
    expect(values.length).toBe(1999);
    expect(new Set(values).size).toBe(1999);
    expect(values).toContain('v0');
    expect(values).toContain('v1998');
    expect(values).not.toContain('v1999');
    expect(md).not.toContain('www');
  });
});
