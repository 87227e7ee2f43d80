import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocmillError } from '../../src/errors.ts';
import { DEFAULT_LIMITS } from '../../src/limits.ts';
import { hasLocalName, localName, parseXml, type XmlElement } from '../../src/util/xml.ts';
import { decodeEntities } from '../../src/util/xml-reader.ts';
import { decodeUtf8, openZip, type SafeZip } from '../../src/util/zip.ts';
import { corpusRoot, corpusSkipReason, hasCorpus, projectRoot } from '../helpers/corpus.ts';
import { prng } from '../helpers/damage.ts';
import { legacyParseXml } from '../helpers/xml-legacy.ts';

const parse = (xml: string, maxXmlDepth = 256) => parseXml(xml, { maxXmlBytes: 1 << 24, maxXmlDepth });
const el = (name: string, attrs: Record<string, string> = {}, children: XmlElement['children'] = []) => ({
  name,
  attrs,
  children,
});
const refusal = (xml: string): string => {
  try {
    parse(xml);
  } catch (err) {
    expect(err).toBeInstanceOf(DocmillError);
    expect((err as DocmillError).status).toBe(400);
    return (err as DocmillError).message;
  }
  throw new Error(`accepted: ${xml}`);
};

describe('parseXml', () => {
  it('keeps mixed content in order, merges text around comments, splits it at instructions and CDATA', () => {
    expect(parse('<?xml version="1.0"?><a>t<!--c-->u<b x="1"/>v<?pi x?>w<![CDATA[<raw>&amp;]]></a>')).toEqual(
      el('a', {}, ['tu', el('b', { x: '1' }), 'v', 'w', '<raw>&amp;']),
    );
    expect(parse('<a> </a>').children).toEqual([' ']);
    expect(parse('<a><![CDATA[]]></a>').children).toEqual(['']);
  });

  it('decodes the predefined entities and character references, nothing else', () => {
    expect(parse('<a x="&lt;&#x41;&#66;">&amp;lt; &foo; &#0; &#65 &constructor; &#x1F600;</a>')).toEqual(
      el('a', { x: '<AB' }, ['&lt; &foo; &#0; &#65 &constructor; 😀']),
    );
  });

  it('normalises CRLF and CR to LF, in text and attributes', () => {
    expect(parse('<a x="1\r\n2">b\r\nc\rd</a>')).toEqual(el('a', { x: '1\n2' }, ['b\nc\nd']));
  });

  it('reads attributes as before: quoted values only, the last duplicate wins, names unchanged', () => {
    expect(parse(`<a w:x="1" y='"' z w=1 x = "2" x="3"/>`).attrs).toEqual({ 'w:x': '1', y: '"', x: '3' });
    expect(parse('<a\tb="1"\n/>').attrs).toEqual({ b: '1' });
  });

  it('refuses DTDs declaring entities and skips those that do not', () => {
    expect(refusal('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>')).toMatch(/declares XML entities/);
    expect(parse('<!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "x.dtd"><ncx/>')).toEqual(el('ncx'));
    expect(parse('<!DOCTYPE a [<!ELEMENT a ANY><!-- ] > -->]><a/>')).toEqual(el('a'));
  });

  it('caps the nesting depth', () => {
    const nest = (n: number) => '<a>'.repeat(n) + '</a>'.repeat(n);
    expect(parse(nest(256)).name).toBe('a');
    expect(refusal(nest(257))).toMatch(/nesting deeper than 256 levels/);
    expect(() => parse(nest(17), 16)).toThrow(/nesting deeper than 16/);
  });

  it('refuses mismatched, stray and unterminated tags and other broken markup', () => {
    for (const [xml, why] of [
      ['<a><b></a></b>', /end tag <\/a> does not close <b>/],
      ['<a></a></b>', /<\/b> has no start tag/],
      ['<a><b>x</b>', /<a> is not closed/],
      ['<a>text', /<a> is not closed/],
      ['<a><b', /start tag is not closed/],
      ['<a x="1>', /start tag is not closed/],
      ['<a></a', /end tag is not closed/],
      ['<a><!-- x', /comment is not closed/],
      ['<a><![CDATA[x', /CDATA section is not closed/],
      ['<a><?pi', /processing instruction is not closed/],
      ['<a>a<b</a>', /is not a tag/],
      ['<a><></a>', /is not a tag/],
      ['<a><!x></a>', /unexpected markup/],
      ['<!DOCTYPE a', /document type declaration is not closed/],
      ['<constructor/>', /refused/],
      ['just text', /no root element/],
    ] as const)
      expect(refusal(xml), xml).toMatch(why);
  });

  it('decodes entities as the expression it replaced did', () => {
    const rand = prng(7);
    const pieces = ['&', '#', 'x', 'X', ';', 'amp', 'lt', 'quot', '1', '41', 'FFFFFF', 'zz', ' ', '0', 'toString'];
    const old = (s: string) =>
      s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e: string) => {
        if (e[0] !== '#') return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[e as 'amp'] ?? m;
        const cp = e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
        return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
      });
    for (let k = 0; k < 5000; k++) {
      let s = '';
      for (let j = Math.floor(rand() * 12); j > 0; j--) s += pieces[Math.floor(rand() * pieces.length)];
      if (!s.includes('toString')) expect(decodeEntities(s), s).toBe(old(s));
    }
  });
});

describe('hasLocalName', () => {
  it('says what localName says: the part after the first colon, empty prefixes and parts included', () => {
    const names = ['w:t', 't', 'wt', 'w:tt', 'a:b:c', 'b:c', ':c', 'c:', ':', '', 'x:rsidR', 'rsidR', 'w:rsidRPr'];
    const locals = ['t', 'c', 'b:c', '', 'rsidR', 'w:t', 'tt'];
    for (const name of names)
      for (const local of locals) expect(hasLocalName(name, local), `${name} ${local}`).toBe(localName(name) === local);
  });
});

/** The parts an OpenDocument manifest lists as encrypted: ciphertext, not XML. */
async function encryptedOdfParts(zip: SafeZip | undefined): Promise<Set<string>> {
  const manifest = await zip?.text('META-INF/manifest.xml').catch(() => undefined);
  const out = new Set<string>();
  for (const entry of manifest?.split(/<manifest:file-entry\b/).slice(1) ?? []) {
    const path = /manifest:full-path="([^"]*)"/.exec(entry)?.[1];
    if (path && entry.includes('<manifest:encryption-data')) out.add(path);
  }
  return out;
}

/** Every XML part of the office files under a folder (fixtures/, the corpus), decoded (not the encrypted ones). */
async function xmlParts(dir: string): Promise<{ name: string; xml: string }[]> {
  const out: { name: string; xml: string }[] = [];
  if (!existsSync(dir)) return out;
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
  for (const file of walk(dir).sort()) {
    if (/\.xml$/i.test(file)) out.push({ name: file, xml: decodeUtf8(new Uint8Array(readFileSync(file))) });
    if (!/\.(docx|docm|xlsx|xlsm|pptx|pptm|odt|ods|odp|epub)$/i.test(file)) continue;
    const zip = await openZip(new Uint8Array(readFileSync(file)), DEFAULT_LIMITS).catch(() => undefined);
    const sealed = await encryptedOdfParts(zip);
    for (const part of zip?.names ?? []) {
      if (!/\.(xml|rels|opf|ncx|xhtml)$/i.test(part) || sealed.has(part)) continue;
      const xml = await zip?.text(part).catch(() => undefined);
      if (xml !== undefined) out.push({ name: `${file}!${part}`, xml });
    }
  }
  return out;
}

/** A tree, or the reason it was refused (the wording differs between the two parsers). */
type Outcome = { tree: string } | { error: string };
const outcome = (f: () => XmlElement): Outcome => {
  try {
    return { tree: JSON.stringify(f()) };
  } catch (err) {
    return { error: (err as Error).message };
  }
};

/** Where the reader refuses what the old parser patched over: the strictness the reader adds. */
const STRICTER = /does not close|has no start tag|is not closed|is not a tag|unexpected markup|misplaced/;

/** A damaged copy: cut short, one character replaced by markup, a few deleted, or a span repeated. */
function damage(xml: string, rand: () => number): string {
  const at = Math.floor(rand() * xml.length);
  const markup = '<>/"\'=&;!?-[]# \nx:';
  switch (Math.floor(rand() * 4)) {
    case 0:
      return xml.slice(0, at);
    case 1:
      return xml.slice(0, at) + markup[Math.floor(rand() * markup.length)] + xml.slice(at + 1);
    case 2:
      return xml.slice(0, at) + xml.slice(at + 1 + Math.floor(rand() * 4));
    default: {
      const to = Math.floor(rand() * xml.length);
      return xml.slice(0, to) + xml.slice(at, at + Math.floor(rand() * 40)) + xml.slice(to);
    }
  }
}

async function compareWithOldParser(dir: string, damagedPerPart: number): Promise<Record<string, number>> {
  const parts = await xmlParts(dir);
  expect(parts.length).toBeGreaterThan(0);
  const tally: Record<string, number> = { same: 0, 'both refused': 0, stricter: 0 };
  const rand = prng(28);
  for (const { name, xml } of parts) {
    const [now, before] = [outcome(() => parse(xml)), outcome(() => legacyParseXml(xml, 256))];
    if ('tree' in now || 'tree' in before) expect(now, name).toEqual(before);
    for (let k = 0; k < damagedPerPart; k++) {
      const bad = damage(xml, rand);
      const now = outcome(() => parse(bad));
      const before = outcome(() => legacyParseXml(bad, 256));
      if ('tree' in now) {
        // The reader never accepts what the old parser refused, and never reads it differently.
        expect(before, `${name}, damaged: ${bad.slice(0, 200)}`).toEqual(now);
        tally.same = (tally.same ?? 0) + 1;
      } else if ('error' in before) tally['both refused'] = (tally['both refused'] ?? 0) + 1;
      else {
        expect(now.error, `${name}, damaged`).toMatch(STRICTER);
        tally.stricter = (tally.stricter ?? 0) + 1;
      }
    }
  }
  return tally;
}

describe('parseXml against the parser it replaced', () => {
  it('builds the same trees on every XML part of the fixtures, and of their damaged copies', async () => {
    const tally = await compareWithOldParser(join(projectRoot, 'fixtures'), 10);
    expect(tally.same).toBeGreaterThan(100);
    expect(tally['both refused']).toBeGreaterThan(100);
  }, 120_000);

  it.skipIf(!hasCorpus)(
    `builds the same trees on every XML part of the corpus, and of damaged copies (${
      hasCorpus ? 'present' : corpusSkipReason
    })`,
    async () => {
      const tally = await compareWithOldParser(corpusRoot, 2);
      expect(tally.same).toBeGreaterThan(500);
    },
    300_000,
  );
});
