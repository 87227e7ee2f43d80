import { createEngine, DocmillError, type Engine } from '@docmill/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../core/test/helpers/corpus.ts';
import { textSimilarity } from '../../core/test/helpers/metrics.ts';
import { NO_DEADLINE } from '../../core/test/helpers/timeouts.ts';
import { createOcrStage } from '../src/index.ts';
import { guessLatinLanguage } from '../src/languages.ts';
import { languageWarnings } from '../src/stage.ts';
import type { OcrPage } from '../src/task.ts';

// Scans made from our own text (fixtures/scripts/make-ocr-language-fixtures.ts): LibreOffice → PDF →
// 150 dpi picture → a PDF holding only the picture. The French and German packs are dev
// dependencies here, as a user installs them beside docmill.
const truth = (lang: string) => new TextDecoder().decode(fixture('ocr-lang', `${lang}.txt`));
const scan = (lang: string) => fixture('pdf', `scan-${lang}.pdf`);

let engine: Engine;
beforeAll(() => {
  engine = createEngine({ stages: [createOcrStage({ workers: 1 })] });
});
afterAll(async () => {
  await engine.close();
});

const read = (lang: string, languages?: string[]) =>
  engine.parse(scan(lang), { ...NO_DEADLINE, ...(languages ? { ocr: { languages } } : {}) }, { filename: 'scan.pdf' });

describe('OCR in other languages', () => {
  it('reads a French scan with the French pack (text similarity ≥ 0.95)', async () => {
    const r = await read('fra', ['fra']);
    expect(r.metadata.ocrPages).toBe(1);
    expect(textSimilarity(r.markdown ?? '', truth('fra'))).toBeGreaterThanOrEqual(0.95);
    expect(r.markdown).toContain("Les élèves du quartier viennent après l'école pour réviser leurs leçons");
    expect(r.warning).toBeNull();
  });

  it('reads a German scan with the German pack (text similarity ≥ 0.95)', async () => {
    const r = await read('deu', ['deu']);
    expect(textSimilarity(r.markdown ?? '', truth('deu'))).toBeGreaterThanOrEqual(0.95);
    expect(r.markdown).toContain('Die Schüler aus dem Viertel kommen nach dem Unterricht, um für');
    expect(r.markdown).toContain('Stammgäste');
    expect(r.warning).toBeNull();
  });

  it('with English only, says which pack would help, and reads worse', async () => {
    const r = await read('fra');
    expect(r.warning).toBe(
      'The scanned text looks French but was read with English only, which misreads its accents and words: install @tesseract.js-data/fra and pass ocr.languages ["fra"] (CLI: --ocr-lang fra).',
    );
    const english = textSimilarity(r.markdown ?? '', truth('fra'));
    const french = textSimilarity((await read('fra', ['fra'])).markdown ?? '', truth('fra'));
    expect(english).toBeLessThan(french);
    const german = await read('deu', ['eng']);
    expect(german.warning).toMatch(
      /^The scanned text looks German but was read with English only.*@tesseract\.js-data\/deu/,
    );
  });

  it('reads languages from several packs together (fra+deu)', async () => {
    const r = await read('fra', ['fra', 'deu']);
    expect(textSimilarity(r.markdown ?? '', truth('fra'))).toBeGreaterThanOrEqual(0.9);
    expect(r.markdown).toContain('la bibliothèque municipale');
  });

  it('reads a Cyrillic scan, asked for nothing, with the installed Cyrillic pack picked from its script', async () => {
    // The Russian pack is not on the registry this suite installs from; the Ukrainian one is (a dev
    // dependency), and OSD's "Cyrillic" picks the first installed of rus, ukr, bul, ….
    const r = await read('rus');
    expect(r.warning).toBe('Page 1 was read with the installed ukr model, picked from its script.');
    // Ukrainian's model reads Russian text with its own letters here and there (ы as ь, э as з).
    expect(r.markdown).toContain('городская библиотека приняла больше читателей, чем когда-либо');
    const english = await read('rus', ['eng']);
    expect(textSimilarity(r.markdown ?? '', truth('rus'))).toBeGreaterThan(
      textSimilarity(english.markdown ?? '', truth('rus')) + 0.3,
    );
  });

  it('refuses a language whose pack is not installed, naming the package, before reading', async () => {
    const err = await engine
      .parse(scan('fra'), { ocr: { languages: ['jpn'] } }, { filename: 'scan.pdf' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(DocmillError);
    expect([err.status, err.message]).toEqual([
      400,
      'The OCR language "jpn" is not installed: install @tesseract.js-data/jpn and pass ocr.languages ["jpn"] (CLI: --ocr-lang jpn). Nothing is downloaded at run time.',
    ]);
    // A code names a model file: nothing else passes.
    const bad = await engine
      .parse(scan('fra'), { ocr: { languages: ['../eng'] } }, { filename: 'scan.pdf' })
      .catch((e) => e);
    expect([bad.status, bad.code]).toEqual([400, 'BAD_REQUEST']);
    expect(bad.message).toMatch(/ocr\.languages/);
    const osd = await engine
      .parse(scan('fra'), { ocr: { languages: ['osd'] } }, { filename: 'scan.pdf' })
      .catch((e) => e);
    expect([osd.status, osd.message]).toEqual([400, 'ocr.languages: "osd" is the orientation model, not a language.']);
  });
});

describe('language warnings', () => {
  const page = (script?: string, words: string[] = []): OcrPage => ({
    width: 100,
    height: 100,
    rotation: 0,
    confidence: 50,
    rules: [],
    lines: [
      {
        words: words.map((text) => ({ text, x0: 0, y0: 0, x1: 1, y1: 1, confidence: 50 })),
        baseLeft: 0,
        baseRight: 0,
        size: 10,
      },
    ],
    ...(script ? { script } : {}),
  });
  const warnings = (pages: (OcrPage | null)[], used: string[]) => {
    const out: string[] = [];
    languageWarnings(
      pages.map((p, i) => ({ number: i + 1, page: p })),
      used,
      (m) => out.push(m),
    );
    return out;
  };
  it('names the packs for a script no installed pack reads, once for all its pages', () => {
    expect(warnings([page('Greek'), null, page('Latin'), page('Greek')], ['eng'])).toEqual([
      'Pages 1, 4 look like Greek script, which the OCR language used (eng) cannot read: install @tesseract.js-data/ell (read without ocr.languages, or pass ocr.languages ["ell"]).',
    ]);
    expect(warnings([page('Cyrillic')], ['deu', 'eng'])[0]).toBe(
      'Page 1 looks like Cyrillic script, which the OCR languages used (deu+eng) cannot read: install @tesseract.js-data/rus or @tesseract.js-data/ukr or @tesseract.js-data/bul or @tesseract.js-data/srp or @tesseract.js-data/bel or @tesseract.js-data/mkd (read without ocr.languages, or pass ocr.languages ["rus"]).',
    );
    // Read with a pack of that script: nothing to say.
    expect(warnings([page('Cyrillic')], ['ukr'])).toEqual([]);
  });
});

describe('guessLatinLanguage', () => {
  const words = (text: string, times = 5) => Array(times).fill(text.split(/\s+/)).flat();
  it('names the language the words clearly are, else nothing', () => {
    expect(guessLatinLanguage(words(truth('fra'), 1))).toBe('fra');
    expect(guessLatinLanguage(words(truth('deu'), 1))).toBe('deu');
    expect(
      guessLatinLanguage(words('The report of the committee is ready and it was sent to the board for review')),
    ).toBe('eng');
    // Too few words, or no language ahead.
    expect(guessLatinLanguage(['le', 'chat'])).toBeUndefined();
    expect(guessLatinLanguage(words('1234 5678 9012 3456 7890 2345 6789 0123'))).toBeUndefined();
  });
});
