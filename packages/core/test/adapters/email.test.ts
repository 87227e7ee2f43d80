import { describe, expect, it } from 'vitest';
import { DocmillError, detect, parse, parseTree } from '../../src/index.ts';
import type { Section } from '../../src/tree/types.ts';
import { corpusFile, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import { NO_DEADLINE } from '../helpers/timeouts.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const md = async (bytes: Uint8Array, filename: string) => (await parse(bytes, {}, { filename })).markdown ?? '';
const sections = (children: readonly { type: string }[], kind: string) =>
  children.filter((b): b is Section => b.type === 'section' && (b as Section).kind === kind);

describe('mail detection', () => {
  it('knows mail by its headers and an mbox by its From line, whatever the label', () => {
    expect(detect(enc('From: a@x.org\nTo: b@y.org\nSubject: hi\n\n<html><body>x</body></html>'), {}).kind).toBe('eml');
    expect(detect(enc('From: a@x.org\nTo: b@y.org\nSubject: hi\n\nbody'), { filename: 'note.txt' }).kind).toBe('eml');
    expect(detect(enc('From a@x.org Mon Jan  1 00:00:00 2024\nFrom: a@x.org\nSubject: hi\n\nbody'), {}).kind).toBe(
      'mbox',
    );
    expect(detect(fixture('mail', 'numbers.msg'), { filename: 'x.bin' }).kind).toBe('msg');
    // A web page labelled as one stays a web page.
    expect(detect(enc('From: a@x.org\nTo: b@y.org\nSubject: hi\n\n<html>x</html>'), { filename: 'a.html' }).kind).toBe(
      'html',
    );
  });
});

describe('.eml', () => {
  it('shows the header block, the HTML body (cid picture, table, quote) and the DOCX attachment', async () => {
    const data = await parse(fixture('mail', 'report.eml'), {}, { filename: 'report.eml' });
    const out = data.markdown ?? '';
    expect(out.startsWith('# Quarterly report – draft\n\n**From:** Renée Dupont \\<renee@example.org>  \n')).toBe(true);
    expect(out).toContain('**To:** Team \\<team@example.org>, Sam Lee \\<sam@example.com>  \n**Cc:** boss@example.org');
    expect(out).toContain('**Date:** Tue, 05 Mar 2024 09:15:00 +0100');
    expect(out).toContain('**Attachments:** Entwurf übersicht.docx, tool.exe');
    expect(out).toContain('the **café** numbers are in:\n\n| Quarter | Revenue |\n| --- | --- |\n| Q1 | 1,200 |');
    expect(out).toContain('![Company logo](<Base64-Image-Removed>)');
    expect(out).toContain('> Earlier: please send the draft.');
    expect(out).not.toContain('(plain version)');
    // The DOCX attachment is parsed as a document, its headings moved below the attachment's.
    expect(out).toContain('## Entwurf übersicht.docx\n\n### Field report');
    expect(out).toContain('| North and South | North and South | 12 |');
    expect(data.warning).toBe('Attachments not read: tool.exe (unsupported type).');
    expect(data.metadata).toMatchObject({
      title: 'Quarterly report – draft',
      author: 'Renée Dupont <renee@example.org>',
    });
    const { tree } = await parseTree(fixture('mail', 'report.eml'), {}, { filename: 'report.eml' });
    expect(sections(tree.children, 'attachment').map((s) => s.name)).toEqual(['Entwurf übersicht.docx']);
  });
  it('inlines the cid picture when base64 images are kept', async () => {
    const data = await parse(fixture('mail', 'report.eml'), { removeBase64Images: false }, { filename: 'r.eml' });
    expect(data.markdown).toContain('![Company logo](data:image/png;base64,iVBORw0KGgo');
  });
});

describe('.mbox', () => {
  it('gives one message section per message, each decoded in its own charset and encoding', async () => {
    const { tree } = await parseTree(fixture('mail', 'inbox.mbox'), {}, { filename: 'inbox.mbox' });
    expect(sections(tree.children, 'message').map((s) => s.name)).toEqual(['Lunch?', 'Re: Lunch?', 'Expenses']);
    expect(tree.metadata.numPages).toBe(3);
    const out = await md(fixture('mail', 'inbox.mbox'), 'inbox.mbox');
    expect(out).toContain('## Lunch?\n\n**From:** Alice \\<alice@example.org>');
    expect(out).toContain('Shall we try the new ramen place (ラーメン)?  \nFrom the menu: it has vegan options.');
    expect(out).toContain('> Bob wrote:  \n> I am hungry.');
    expect(out).toContain('Sure, 12:30 at the café – see you there.');
    expect(out).toContain('### expenses.csv\n\n| item | amount |\n| --- | --- |\n| ramen | 12.50 |\n| coffee | 3.20 |');
  });
});

describe('.msg', () => {
  it('reads MAPI properties, recipients, the HTML body and attachments (CSV, DOCX, a message)', async () => {
    const data = await parse(fixture('mail', 'numbers.msg'), {}, { filename: 'numbers.msg' });
    const out = data.markdown ?? '';
    expect(out.startsWith('# Regional numbers for Q1\n\n**From:** Kai Müller \\<kai@example.de>  \n')).toBe(true);
    expect(out).toContain('**To:** Dana Cruz \\<dana@example.com>  \n**Cc:** Lee Park \\<lee@example.com>');
    expect(out).toContain('**Date:** Wed, 06 Mar 2024 14:30:00 +0000');
    expect(out).toContain('the **numbers** are attached (Größe: klein).');
    expect(out).toContain('## regions.csv\n\n| region | units |\n| --- | --- |\n| North | 120 |\n| South | 95 |');
    expect(out).toContain('## notes.docx\n\n### Field report');
    expect(out).toContain('## Original request\n\n**From:** Dana Cruz \\<dana@example.com>');
    expect(out).toContain('Could you send the regional numbers by Friday?');
    expect(data.warning).toBeNull();
  });
  it('answers a looping FAT with a clean 400', async () => {
    const bytes = fixture('mail', 'numbers.msg');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // Every FAT entry points at sector 0: each chain loops on itself.
    const fatSector = view.getUint32(0x4c, true);
    for (let i = 0; i < 128; i++) view.setUint32(512 * (1 + fatSector) + i * 4, 0, true);
    const err = await parse(bytes, {}, { filename: 'loop.msg' }).catch((e) => e);
    expect(err).toBeInstanceOf(DocmillError);
    expect([err.status, err.code]).toEqual([400, 'BAD_REQUEST']);
    expect(err.message).toMatch(/compound file/);
  });
});

describe('hostile mail', () => {
  it('reads 1,000 of 100,000 MIME parts and says so', async () => {
    const parts = Array.from({ length: 100_000 }, (_, i) => `--b\r\nContent-Type: text/plain\r\n\r\npart ${i}\r\n`);
    const mail = `From: a@x.org\r\nTo: b@x.org\r\nSubject: many\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n${parts.join('')}--b--\r\n`;
    // Bounded by the part cap, not by a clock: the test does not depend on the machine's speed.
    const data = await parse(enc(mail), NO_DEADLINE, { filename: 'many.eml' });
    expect(data.markdown).toContain('part 0');
    expect(data.markdown).not.toContain('part 5000');
    expect(data.warning).toMatch(/more than 1000 MIME parts/);
  });
  it('runs a multipart whose closing boundary never comes to the end of the message, with a warning', async () => {
    const mail =
      'From: a@x.org\nTo: b@x.org\nSubject: open\nContent-Type: multipart/mixed; boundary=zz\n\n--zz\nContent-Type: text/plain\n\nfirst\n--zz\nContent-Type: text/plain\n\nlast part that never closes\n';
    const data = await parse(enc(mail), {}, { filename: 'open.eml' });
    expect(data.markdown).toContain('first');
    expect(data.markdown).toContain('last part that never closes');
    expect(data.warning).toMatch(/never closed/);
  });
  it('reads a megabyte-long boundary and a part that is one endless line in bounded time', async () => {
    const q = 'q'.repeat(1_000_000);
    const long = `From: a@x.org\nSubject: b\nContent-Type: multipart/mixed; boundary="${q}"\n\n--${q}\nContent-Type: text/plain\n\nhello\n`;
    const a = await parse(enc(long), NO_DEADLINE, { filename: 'long.eml' });
    expect(a.markdown).toContain('hello');
    expect(a.warning).toMatch(/never closed/);
    const endless = `From: a@x.org\nSubject: c\nContent-Type: multipart/mixed; boundary=zz\n\n--zz\nContent-Type: text/plain\n\n${'x'.repeat(10_000_000)}`;
    const b = await parse(enc(endless), NO_DEADLINE, { filename: 'endless.eml' });
    expect(b.markdown?.length).toBeGreaterThan(10_000_000);
    expect(b.warning).toMatch(/never closed/);
    // Boundary-like runs that are never a boundary line.
    const c = await parse(
      enc(`From: a@x.org\nSubject: d\nContent-Type: multipart/mixed; boundary=zz\n\n${'--z'.repeat(1_000_000)}`),
      NO_DEADLINE,
      { filename: 'runs.eml' },
    );
    expect(c.markdown).toContain('# d');
  });
  it('bounds messages attached inside messages', async () => {
    let mail = 'From: a@x.org\nTo: b@x.org\nSubject: level 0\n\ninnermost';
    for (let i = 1; i <= 200; i++)
      mail = `From: a@x.org\nTo: b@x.org\nSubject: level ${i}\nContent-Type: message/rfc822\n\n${mail}`;
    const data = await parse(enc(mail), {}, { filename: 'deep.eml' });
    expect(data.markdown).toContain('# level 200');
    expect(data.markdown).not.toContain('innermost');
  });
});

describe.skipIf(!hasCorpus)('markitdown corpus: Outlook message', () => {
  if (!hasCorpus) console.warn(corpusSkipReason);
  it('test_outlook_msg.msg gives its headers and body', async () => {
    const out = await md(corpusFile('markitdown', 'test_outlook_msg.msg'), 'test_outlook_msg.msg');
    expect(out).toContain('# Test Email Message');
    expect(out).toContain('**From:** M. C. Kurtuluş \\<test.sender@example.com>');
    expect(out).toContain('**To:** test.recipient@example.com');
    expect(out).toContain('This is the body of the test email message');
  });
});
