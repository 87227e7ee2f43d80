import { describe, expect, it } from 'vitest';
import { DocmillError, normalizeOptions } from '../src/index.ts';

const rejects = (input: unknown, code = 'BAD_REQUEST', field?: string | RegExp) => {
  let caught: unknown;
  try {
    normalizeOptions(input);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(DocmillError);
  const e = caught as DocmillError;
  expect(e.status).toBe(400);
  expect(e.code).toBe(code);
  if (field) expect(e.message).toMatch(field);
  return e;
};

describe('ParseOptions defaults (contract 2.2)', () => {
  it('fills every default', () => {
    const o = normalizeOptions({});
    expect([...o.formats]).toEqual(['markdown']);
    expect(o.onlyMainContent).toBe(true);
    expect(o.timeout).toBe(30000);
    expect(o.removeBase64Images).toBe(true);
    expect(o.pdf).toEqual({ mode: 'auto', pages: false, blocks: false, pageMarkers: false });
    expect(o.redactPII).toBeNull();
    expect(o.origin).toBe('api');
    expect(o.raw.blockAds).toBe(true);
    expect(o.raw.skipTlsVerification).toBe(true);
    expect(o.raw.zeroDataRetention).toBe(false);
    expect(o.includeTags).toEqual([]);
    expect(o.excludeTags).toEqual([]);
  });
  it('rejects a non-object', () => {
    rejects([], 'BAD_REQUEST', /JSON object/);
    rejects('markdown', 'BAD_REQUEST', /JSON object/);
    rejects(null, 'BAD_REQUEST', /JSON object/);
  });
  it('rejects unknown keys (strict objects), naming them', () => {
    rejects({ foo: 1 }, 'BAD_REQUEST', /foo/);
  });
});

describe('formats (2.3, compat: strings or objects)', () => {
  it('accepts plain strings and objects alike', () => {
    const o = normalizeOptions({
      formats: ['markdown', { type: 'html' }, 'rawHtml', { type: 'links' }, 'images', 'summary'],
    });
    expect([...o.formats].sort()).toEqual(['html', 'images', 'links', 'markdown', 'rawHtml', 'summary']);
  });
  it('takes the json format with schema and prompt', () => {
    const o = normalizeOptions({ formats: [{ type: 'json', schema: { type: 'object' }, prompt: 'get it' }] });
    expect(o.json).toEqual({ schema: { type: 'object' }, prompt: 'get it' });
  });
  it('rejects an unknown format and extra keys on a format object', () => {
    rejects({ formats: ['pdf'] }, 'BAD_REQUEST', /formats/);
    rejects({ formats: [{ type: 'markdown', extra: true }] }, 'BAD_REQUEST', /formats/);
    rejects({ formats: 'markdown' }, 'BAD_REQUEST', /formats/);
  });
  it.each(['screenshot', 'changeTracking', 'branding'])(
    'refuses browser-only format %s as unsupported on parse',
    (f) => {
      rejects({ formats: [f] }, 'PARSE_UNSUPPORTED_OPTIONS', new RegExp(f));
      rejects({ formats: [{ type: f }] }, 'PARSE_UNSUPPORTED_OPTIONS');
    },
  );
});

describe('scalar options', () => {
  it('onlyMainContent, removeBase64Images, blockAds, skipTlsVerification, zeroDataRetention are booleans', () => {
    for (const k of ['onlyMainContent', 'removeBase64Images', 'blockAds', 'skipTlsVerification', 'zeroDataRetention']) {
      rejects({ [k]: 'yes' }, 'BAD_REQUEST', new RegExp(k));
      expect(() => normalizeOptions({ [k]: false })).not.toThrow();
    }
  });
  it('includeTags / excludeTags are arrays of strings', () => {
    expect(normalizeOptions({ includeTags: ['main'], excludeTags: ['.ad'] }).includeTags).toEqual(['main']);
    rejects({ includeTags: 'main' }, 'BAD_REQUEST', /includeTags/);
    rejects({ excludeTags: [1] }, 'BAD_REQUEST', /excludeTags/);
  });
  it('headers is an object of strings', () => {
    expect(() => normalizeOptions({ headers: { 'x-a': 'b' } })).not.toThrow();
    rejects({ headers: ['x'] }, 'BAD_REQUEST', /headers/);
  });
  it('timeout is an integer from 1000 to 300000', () => {
    expect(normalizeOptions({ timeout: 1000 }).timeout).toBe(1000);
    expect(normalizeOptions({ timeout: 300000 }).timeout).toBe(300000);
    rejects({ timeout: 999 }, 'BAD_REQUEST', /timeout/);
    rejects({ timeout: 300001 }, 'BAD_REQUEST', /timeout/);
    rejects({ timeout: 1500.5 }, 'BAD_REQUEST', /timeout/);
    rejects({ timeout: '30000' }, 'BAD_REQUEST', /timeout/);
  });
  it('origin is a string; integration a string or null', () => {
    expect(normalizeOptions({ origin: 'js-sdk@4.0.0' }).origin).toBe('js-sdk@4.0.0');
    expect(() => normalizeOptions({ integration: null })).not.toThrow();
    rejects({ origin: 5 }, 'BAD_REQUEST', /origin/);
    rejects({ integration: 5 }, 'BAD_REQUEST', /integration/);
  });
  it('proxy accepts basic and auto; other proxies are unsupported on parse', () => {
    expect(() => normalizeOptions({ proxy: 'basic' })).not.toThrow();
    expect(() => normalizeOptions({ proxy: 'auto' })).not.toThrow();
    rejects({ proxy: 'stealth' }, 'PARSE_UNSUPPORTED_OPTIONS', /proxy/);
  });
  it.each(['actions', 'waitFor', 'mobile', 'location'])('scrape-only option %s is unsupported on parse', (k) => {
    rejects({ [k]: k === 'actions' ? [] : true }, 'PARSE_UNSUPPORTED_OPTIONS', /Parse uploads do not support/);
  });
});

describe('parsers (2.4)', () => {
  it('accepts the plain string and the object form', () => {
    expect(normalizeOptions({ parsers: ['pdf'] }).pdf.mode).toBe('auto');
    const o = normalizeOptions({
      parsers: [{ type: 'pdf', mode: 'fast', maxPages: 3, pages: true, blocks: true, pageMarkers: true }],
    });
    expect(o.pdf).toEqual({ mode: 'fast', maxPages: 3, pages: true, blocks: true, pageMarkers: true });
  });
  it('mode defaults to auto and is one of fast, auto, ocr', () => {
    expect(normalizeOptions({ parsers: [{ type: 'pdf' }] }).pdf.mode).toBe('auto');
    expect(normalizeOptions({ parsers: [{ type: 'pdf', mode: 'ocr' }] }).pdf.mode).toBe('ocr');
    rejects({ parsers: [{ type: 'pdf', mode: 'slow' }] }, 'BAD_REQUEST', /parsers/);
  });
  it('maxPages is an integer from 1 to 10000', () => {
    expect(normalizeOptions({ parsers: [{ type: 'pdf', maxPages: 1 }] }).pdf.maxPages).toBe(1);
    expect(normalizeOptions({ parsers: [{ type: 'pdf', maxPages: 10000 }] }).pdf.maxPages).toBe(10000);
    rejects({ parsers: [{ type: 'pdf', maxPages: 0 }] }, 'BAD_REQUEST', /parsers/);
    rejects({ parsers: [{ type: 'pdf', maxPages: 10001 }] }, 'BAD_REQUEST', /parsers/);
    rejects({ parsers: [{ type: 'pdf', maxPages: 2.5 }] }, 'BAD_REQUEST', /parsers/);
  });
  it('allows no additional properties on a parser object', () => {
    rejects({ parsers: [{ type: 'pdf', dpi: 300 }] }, 'BAD_REQUEST', /parsers/);
    rejects({ parsers: [{ type: 'docx' }] }, 'BAD_REQUEST', /parsers/);
  });
  it('knows the image parser (compat notes)', () => {
    expect(normalizeOptions({ parsers: ['image'] }).imageParser).toBe(true);
    expect(normalizeOptions({ parsers: [{ type: 'image' }] }).imageParser).toBe(true);
  });
  it('without a pdf parser entry PDFs are read as text only', () => {
    expect(normalizeOptions({ parsers: [] }).pdf.mode).toBe('fast');
  });
});

describe('redactPII (2.5)', () => {
  it('true uses the defaults', () => {
    expect(normalizeOptions({ redactPII: true }).redactPII).toEqual({
      mode: 'accurate',
      entities: ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'],
      replaceStyle: 'tag',
    });
  });
  it('an object tunes mode, entities and replaceStyle', () => {
    expect(
      normalizeOptions({ redactPII: { mode: 'fast', entities: ['EMAIL'], replaceStyle: 'mask' } }).redactPII,
    ).toEqual({
      mode: 'fast',
      entities: ['EMAIL'],
      replaceStyle: 'mask',
    });
  });
  it('rejects unknown modes, entities, styles and keys', () => {
    rejects({ redactPII: { mode: 'quick' } }, 'BAD_REQUEST', /redactPII/);
    rejects({ redactPII: { entities: ['SSN'] } }, 'BAD_REQUEST', /redactPII/);
    rejects({ redactPII: { replaceStyle: 'hash' } }, 'BAD_REQUEST', /redactPII/);
    rejects({ redactPII: { model: 'x' } }, 'BAD_REQUEST', /redactPII|model/);
    rejects({ redactPII: 'yes' }, 'BAD_REQUEST', /redactPII/);
  });
});

describe('auditMetadata (2.6)', () => {
  it('requires username of at most 1024 characters and nothing else', () => {
    expect(() => normalizeOptions({ auditMetadata: { username: 'a'.repeat(1024) } })).not.toThrow();
    rejects({ auditMetadata: { username: 'a'.repeat(1025) } }, 'BAD_REQUEST', /auditMetadata/);
    rejects({ auditMetadata: {} }, 'BAD_REQUEST', /auditMetadata/);
    rejects({ auditMetadata: { username: 'a', team: 'b' } }, 'BAD_REQUEST', /team/);
  });
});

describe('validation errors carry details', () => {
  it('lists every issue in details', () => {
    const e = rejects({ timeout: 1, onlyMainContent: 'x' });
    expect(e.details?.length).toBe(2);
    expect(e.toJSON()).toMatchObject({ success: false, code: 'BAD_REQUEST' });
  });
});

describe('options are bounded in depth and size before anything recursive reads them', () => {
  const nested = (depth: number): unknown => {
    let v: unknown = { type: 'string' };
    for (let i = 0; i < depth; i++) v = { type: 'object', properties: { a: v } };
    return v;
  };

  it('refuses a 10,000-deep json schema with a 400 naming the depth limit and where it was passed', () => {
    let deep: unknown = {};
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const e = rejects({ formats: [{ type: 'json', schema: { a: deep } }] }, 'BAD_REQUEST', /64 levels deep/);
    expect(e.message).toMatch(/^Invalid option formats\[0\]\.schema\.a(\[0\])+: nested more than 64 levels deep/);
  });

  it('accepts a realistic nested schema (20 object levels)', () => {
    const o = normalizeOptions({ formats: [{ type: 'json', schema: nested(20) as Record<string, unknown> }] });
    expect(JSON.stringify(o.json?.schema).length).toBeGreaterThan(500);
  });

  it('refuses more than 10,000 values and more than 1,000,000 characters, naming the limit', () => {
    const wide = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`k${i}`, i]));
    rejects({ formats: [{ type: 'json', schema: wide }] }, 'BAD_REQUEST', /more than 10000 values \(the limit\)/);
    rejects({ includeTags: Array(2_000_000).fill('p') }, 'BAD_REQUEST', /more than 10000 values/);
    rejects({ formats: [{ type: 'json', prompt: 'x'.repeat(1_000_001) }] }, 'BAD_REQUEST', /1000000 characters/);
  });
});

describe('validation errors name what is accepted', () => {
  it('an invalid enum or literal, inside a union too, lists every valid value and what was given', () => {
    const all = '"markdown", "summary", "html", "rawHtml", "links", "images", "json" or "chunks"';
    expect(rejects({ formats: ['markdown', 'bogus'] }).message).toBe(
      `Invalid option formats[1]: expected one of ${all} (got "bogus")`,
    );
    expect(rejects({ formats: [{ type: 'bogus' }] }).message).toBe(
      `Invalid option formats[0].type: expected one of ${all} (got "bogus")`,
    );
    expect(rejects({ parsers: ['word'] }).message).toBe(
      'Invalid option parsers[0]: expected one of "pdf" or "image" (got "word")',
    );
    expect(rejects({ parsers: [{ type: 'pdf', mode: 'slow' }] }).message).toBe(
      'Invalid option parsers[0].mode: expected one of "fast", "auto" or "ocr" (got "slow")',
    );
    expect(rejects({ redactPII: { mode: 'quick' } }).message).toBe(
      'Invalid option redactPII.mode: expected one of "accurate", "aggressive" or "fast" (got "quick")',
    );
    expect(rejects({ redactPII: { entities: ['PERSON', 'SSN'] } }).message).toBe(
      'Invalid option redactPII.entities[1]: expected one of "PERSON", "EMAIL", "PHONE", "LOCATION", "FINANCIAL" or "SECRET" (got "SSN")',
    );
  });
  it('a union taking none of the kinds given names the kinds; a branch the value meant reports its own problem', () => {
    expect(rejects({ redactPII: 'yes' }).message).toBe('Invalid option redactPII: expected boolean or object');
    expect(rejects({ formats: [{ type: 'json', schema: 3 }] }).message).toMatch(
      /^Invalid option formats\[0\]\.schema: .*record/,
    );
    expect(rejects({ parsers: [{ type: 'pdf', maxPages: 0 }] }).message).toMatch(
      /^Invalid option parsers\[0\]\.maxPages: .*>=1/,
    );
  });
});
