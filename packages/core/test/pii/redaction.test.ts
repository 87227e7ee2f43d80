import { describe, expect, it } from 'vitest';
import { createEngine, type PiiModel, parse } from '../../src/index.ts';
import { errorOf } from '../helpers/errors.ts';

const enc = (s: string) => new TextEncoder().encode(s);

const page = `<!DOCTYPE html><html><head><title>Note for Maria Garcia</title>
<meta name="author" content="Tobias Lindqvist"></head><body>
<h1>Account review</h1>
<p>Please contact <b>Maria</b> Garcia at <a href="mailto:maria.garcia@example.com">maria.garcia@example.com</a>
or <a href="https://crm.example.com/lookup?email=maria.garcia%40example.com&amp;ref=77">her record</a>.</p>
<p>Card on file: 4111 1111 1111 1111. Token: sk_live_4eC39HqLyjWDarjtT1zdp7dc</p>
<img src="/badge.png" alt="Photo of Maria Garcia">
<table><tr><th>Name</th><th>SSN</th><th>Phone</th></tr>
<tr><td>Tobias Lindqvist</td><td>078051120</td><td>(415) 555-2671</td></tr></table>
<ul><li>Order 10234567 shipped 2024-03-15 for $1,234.56</li></ul>
</body></html>`;

const fast = (replaceStyle: 'tag' | 'mask' | 'remove') => ({
  formats: ['markdown', 'html', 'links', 'images', 'summary', 'rawHtml'] as (
    | 'markdown'
    | 'html'
    | 'links'
    | 'images'
    | 'summary'
    | 'rawHtml'
  )[],
  redactPII: { mode: 'fast' as const, replaceStyle },
});

describe('redactPII on the block tree (fast mode, default engine)', () => {
  it('tag: every output is redacted consistently, placeholders as the contract writes them', async () => {
    const data = await parse(enc(page), fast('tag'), { filename: 'note.html' });
    const all = JSON.stringify(data);
    for (const leaked of ['Maria', 'Garcia', 'maria.garcia', 'Lindqvist', '4111', 'sk_live', '078051120', '555-2671'])
      expect(all, leaked).not.toContain(leaked);
    expect(data.markdown).toContain('Please contact **<PERSON>** at [<EMAIL>](mailto:%3CEMAIL%3E)');
    expect(data.markdown).toContain('Card on file: <FINANCIAL>. Token: <SECRET>');
    expect(data.markdown).toContain('| <PERSON> | <FINANCIAL> | <PHONE> |');
    expect(data.markdown).toContain('![Photo of <PERSON>](');
    expect(data.links).toContain('mailto:%3CEMAIL%3E');
    expect(data.links).toContain('https://crm.example.com/lookup?email=%3CEMAIL%3E&ref=77');
    expect(data.html).toContain('&lt;PERSON&gt;');
    expect(data.metadata.title).toBe('Note for <PERSON>');
    // What must survive does.
    expect(data.markdown).toContain('Order 10234567 shipped 2024-03-15 for $1,234.56');
    expect(data.rawHtml).toBeNull();
    expect(data.warning).toMatch(/rawHtml is not returned when redactPII is on/);
  });
  it('mask: one * per character; remove: the span goes and spacing is tidied', async () => {
    const masked = await parse(enc(page), fast('mask'), { filename: 'note.html' });
    expect(masked.markdown).toContain(
      'Card on file: \\*\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*. Token:',
    );
    expect(masked.markdown).not.toContain('Garcia');
    const removed = await parse(enc(page), fast('remove'), { filename: 'note.html' });
    expect(removed.markdown).toContain('Card on file:. Token:\n');
    expect(removed.markdown).toContain(
      'Please contact at or [her record](https://crm.example.com/lookup?email=&ref=77).',
    );
    expect(removed.markdown).toContain('![Photo of](/badge.png)');
    expect(removed.markdown).not.toMatch(/[^|\s] {2,}[^|\s]/);
  });
  it('remove: a link left without text goes, one left without a target keeps its text unlinked', async () => {
    const html = `<p>Mail <a href="mailto:jane.doe@example.com">jane.doe@example.com</a>, or
<a href="mailto:jane.doe@example.com?subject=Hi">write to us</a>, or call <a href="tel:+14155552671">+1 415 555 2671</a>.</p>
<p><strong><a href="mailto:ops@example.org">ops@example.org</a></strong> is the team.</p>`;
    const data = await parse(
      enc(html),
      { formats: ['markdown', 'links'], redactPII: { mode: 'fast', replaceStyle: 'remove' } },
      {
        filename: 'links.html',
      },
    );
    expect(data.markdown).toContain('Mail, or write to us, or call.');
    expect(data.markdown).not.toMatch(/mailto|tel:|\[\]|\(\)/);
    expect(data.markdown).not.toContain('example');
    expect(data.markdown).toContain('is the team.');
    expect(data.links ?? []).toEqual([]);
  });
  it('entities restricts the buckets', async () => {
    const data = await parse(
      enc(page),
      { formats: ['markdown'], redactPII: { mode: 'fast', entities: ['EMAIL'] } },
      { filename: 'note.html' },
    );
    expect(data.markdown).toContain('Maria');
    expect(data.markdown).toContain('4111 1111 1111 1111');
    expect(data.markdown).not.toContain('maria.garcia@example.com');
  });
  it('a value split across runs is one span; table heads label their columns', async () => {
    const data = await parse(enc('Name,Account number\nTobias Lindqvist,12345678\n'), fast('tag'), {
      filename: 'people.csv',
    });
    expect(data.markdown).toContain('| <PERSON> | <FINANCIAL> |');
  });
  it("a key/value form's first row is data, not column heads: the field labels under it stay", async () => {
    const row = (...cells: string[]) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
    const html = `<table>${row('Insured name', 'Gabriel Diaz', 'Year', '2022')}${row('Claim #', 'SF-1008', 'Make', 'Jeep')}${row('Phone', '(425) 111-1111', 'Trim', 'Limited')}${row('Email', 'gabriel@contoso.com', 'VIN', '1C4RJFBG2NC123456')}</table>`;
    const data = await parse(enc(html), fast('tag'), { filename: 'form.html' });
    expect(data.markdown).toContain('| Claim # | SF-1008 | Make | Jeep |');
    expect(data.markdown).toContain('| Phone | <PHONE> | Trim | Limited |');
    expect(data.markdown).toContain('| Email | <EMAIL> | VIN |');
    expect(data.markdown).not.toContain('gabriel@contoso.com');
  });
});

describe('redactPII fails closed', () => {
  it('model modes without a model: 400 naming the fix, before any parsing', async () => {
    for (const mode of ['accurate', 'aggressive'] as const) {
      const e = await errorOf(parse(enc(page), { redactPII: { mode } }, { filename: 'note.html' }));
      expect([e.status, e.code]).toEqual([400, 'PARSE_UNSUPPORTED_OPTIONS']);
      expect(e.message).toContain('createEngine({ pii: { model } })');
      expect(e.message).toContain('mode: "fast"');
      expect(e.message).not.toContain('Maria');
    }
  });
  it('a model that fails: error, no text', async () => {
    const broken: PiiModel = { detect: async () => Promise.reject(new Error('onnx session lost')) };
    const engine = createEngine({ pii: { model: broken } });
    const e = await errorOf(engine.parse(enc(page), { redactPII: true }, { filename: 'note.html' }));
    expect(e.status).toBe(500);
    expect(e.message).toMatch(/PII model failed.*onnx session lost/);
  });
  it('pii: false installs no stage, so redactPII is refused', async () => {
    const engine = createEngine({ pii: false });
    const e = await errorOf(engine.parse(enc(page), { redactPII: { mode: 'fast' } }, { filename: 'note.html' }));
    expect(e.message).toMatch(/no PII redaction stage/);
  });
  it('accurate keeps model spans and only self-validating patterns; aggressive adds the rest', async () => {
    const text = '<p>Ada Lovelace wrote from 12 Baker Street; card 4111 1111 1111 1111, phone (415) 555-2671.</p>';
    const model: PiiModel = {
      detect: async (texts) =>
        texts.map((t) => {
          const i = t.indexOf('Ada Lovelace');
          return i < 0
            ? []
            : [{ start: i, end: i + 12, entity: 'PERSON' as const, validated: true, source: 'model' as const }];
        }),
    };
    const engine = createEngine({ pii: { model } });
    const accurate = await engine.parse(enc(text), { redactPII: { mode: 'accurate' } }, { filename: 'a.html' });
    expect(accurate.markdown).toContain('<PERSON> wrote from 12 Baker Street; card <FINANCIAL>, phone (415) 555-2671.');
    const aggressive = await engine.parse(enc(text), { redactPII: { mode: 'aggressive' } }, { filename: 'a.html' });
    expect(aggressive.markdown).toContain('<PERSON> wrote from <LOCATION>; card <FINANCIAL>, phone <PHONE>.');
  });
});

describe('redactPII on a long document', () => {
  it('stops at the timeout instead of scanning on (fails closed with 408)', async () => {
    const row = 'Maria Garcia,maria@example.com,(415) 555-2671,742 Evergreen Terrace\n';
    const csv = `Name,Email,Phone,Address\n${row.repeat(30_000)}`;
    const started = Date.now();
    const err = await parse(enc(csv), { timeout: 1000, redactPII: { mode: 'fast' } }, { filename: 'big.csv' }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ status: 408, code: 'SCRAPE_TIMEOUT' });
    // A full redaction of this table takes several times longer than the timeout.
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

describe('redactPII: a private key split over blocks', () => {
  const body = [
    'MIIEowIBAAKCAQEAwJ8Zq3c9m1Xn0vB4uK2s7Yq5rT8pL1eD6hF0gH3jK9mN2bV4',
    'cX7zQ1wE5rT6yU8iO0pA2sD4fG6hJ8kL0zX2cV4bN6mQ8wE0rT2yU4iO6pA8sD0f',
    'G2hJ4kL6zX8cV0bN2mQ4wE6rT8yU0iO2pA4sD6fG8hJ0kL2zX4cV6bN8mQ0wE2r==',
  ];
  const html = `<p>Deploy notes for the staging host.</p>
<p>-----BEGIN RSA PRIVATE KEY-----</p>
<p>${body[0]}<br>${body[1]}</p>
<p>${body[2]}</p>
<p>-----END RSA PRIVATE KEY-----</p>
<p>Rotate it after the release.</p>`;

  it('is one secret from the BEGIN line to the END line, whatever the style', async () => {
    for (const replaceStyle of ['tag', 'mask', 'remove'] as const) {
      const data = await parse(
        enc(html),
        { formats: ['markdown'], redactPII: { mode: 'fast', replaceStyle } },
        {
          filename: 'key.html',
        },
      );
      const md = data.markdown ?? '';
      for (const line of body) expect(md, `${replaceStyle}: ${line}`).not.toContain(line.slice(0, 12));
      expect(md).not.toMatch(/BEGIN RSA|END RSA|PRIVATE KEY/);
      expect(md).toContain('Deploy notes for the staging host.');
      expect(md).toContain('Rotate it after the release.');
      if (replaceStyle === 'tag') expect(md.match(/<SECRET>/g)?.length).toBe(4);
    }
  });

  it('does not take ordinary paragraphs after a BEGIN line with no key body', async () => {
    const data = await parse(
      enc('<p>-----BEGIN RSA PRIVATE KEY-----</p><p>Introduction</p><p>The key was removed from this page.</p>'),
      { formats: ['markdown'], redactPII: { mode: 'fast' } },
      { filename: 'k.html' },
    );
    expect(data.markdown).toContain('Introduction');
    expect(data.markdown).toContain('The key was removed from this page.');
  });
});
