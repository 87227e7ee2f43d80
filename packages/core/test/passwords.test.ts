import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { DocmillError, parse, withPasswordHint } from '../src/index.ts';
import { fixture } from './helpers/corpus.ts';
import { expectSurvivesDamage } from './helpers/damage.ts';
import { errorOf } from './helpers/errors.ts';

const PW = 'Tr0ub4dor&3';

interface Locked {
  file: [string, string];
  password: string;
  /** The same document unencrypted: the decrypted one must read exactly as it does. */
  plain?: [string, string];
  /** Text the decrypted document holds. */
  holds: string[];
}

/** Every format that can be password-encrypted, with a fixture of it. */
const LOCKED: Locked[] = [
  { file: ['pdf', 'encrypted.pdf'], password: 'docmill', holds: ['Locked Fixture'] },
  { file: ['docx', 'password.docx'], password: PW, plain: ['docx', 'basic.docx'], holds: ['# Field report'] },
  { file: ['sheet', 'password.xlsx'], password: PW, plain: ['sheet', 'basic.xlsx'], holds: ['## Sales'] },
  { file: ['pptx', 'password.pptx'], password: PW, plain: ['pptx', 'basic.pptx'], holds: ['# Launch plan'] },
  { file: ['doc', 'password-rc4.doc'], password: PW, plain: ['doc', 'basic.doc'], holds: ['| North | 120 |'] },
  { file: ['doc', 'password-cryptoapi.doc'], password: PW, plain: ['doc', 'basic.doc'], holds: ['| North | 120 |'] },
  { file: ['sheet', 'password-rc4.xls'], password: PW, plain: ['sheet', 'basic.xls'], holds: ['## Sales'] },
  { file: ['ppt', 'password.ppt'], password: PW, plain: ['ppt', 'basic.ppt'], holds: ['# Project Kickoff'] },
  {
    file: ['odt', 'password-aes.odt'],
    password: PW,
    holds: ['# Quarterly Secrets', 'Zürich – “naïve” café', '| Safe | 0815 |', 'Line 40 of the ledger'],
  },
  {
    file: ['odt', 'password-blowfish.odt'],
    password: PW,
    holds: ['# Quarterly Secrets', 'Zürich – “naïve” café', '| Safe | 0815 |', 'Line 40 of the ledger'],
  },
  { file: ['sheet', 'password.ods'], password: PW, holds: ['## Budget', '| Café | 42.5 |', '## Notes'] },
  {
    file: ['odp', 'password.odp'],
    password: 'Pässwört-ß',
    holds: ['# Board Meeting', 'Merger talks stay confidential'],
  },
];

const name = (l: Locked) => l.file[1];

describe('password-protected documents, every format', () => {
  it.each(LOCKED.map((l) => [name(l), l] as const))(
    '%s: missing and wrong passwords are told apart; the right one opens it',
    async (_, l) => {
      // Before: PDF, PPT and ODF said the same with a wrong password as with none; PPT and ODF did
      // not open even with the right one.
      const bytes = fixture(...l.file);
      const filename = name(l);
      const none = await errorOf(parse(bytes, {}, { filename }));
      expect([none.status, none.code, none.password]).toEqual([400, 'BAD_REQUEST', 'required']);
      expect(none.message).toMatch(
        /is password-protected and cannot be read without its password\. Pass its password in hints\.password\.$/,
      );
      const wrong = await errorOf(parse(bytes, {}, { filename, password: 'not it' }));
      expect([wrong.status, wrong.password]).toEqual([400, 'incorrect']);
      expect(wrong.message).toMatch(
        /is password-protected and the password given does not open it\. Pass the right one in hints\.password\.$/,
      );
      // The body over HTTP stays the contract's: no extra field.
      expect(Object.keys(wrong.toJSON()).sort()).toEqual(['code', 'error', 'success']);
      const opened = await parse(bytes, {}, { filename, password: l.password });
      for (const text of l.holds) expect(opened.markdown).toContain(text);
      if (l.plain) {
        const plain = await parse(fixture(...l.plain), {}, { filename: l.plain[1] });
        expect(opened.markdown).toBe(plain.markdown);
      }
    },
  );

  it('names the surface’s own way to give the password (withPasswordHint)', async () => {
    const none = await errorOf(parse(fixture('pdf', 'encrypted.pdf'), {}, { filename: 'x.pdf' }));
    const cli = withPasswordHint(none, 'with --password') as DocmillError;
    expect(cli.message).toBe(
      'The PDF is password-protected and cannot be read without its password. Pass its password with --password.',
    );
    expect([cli.status, cli.code, cli.password]).toEqual([400, 'BAD_REQUEST', 'required']);
    const wrong = await errorOf(parse(fixture('ppt', 'password.ppt'), {}, { filename: 'x.ppt', password: 'x' }));
    expect((withPasswordHint(wrong, 'in the password field') as DocmillError).message).toBe(
      'The PowerPoint presentation is password-protected and the password given does not open it. Pass the right one in the password field.',
    );
    // Rebuilt elsewhere (a worker, a queue), the error keeps its message and marker: the hint still swaps.
    const rebuilt = new DocmillError(400, 'BAD_REQUEST', none.message, { password: 'required' });
    expect((withPasswordHint(rebuilt, 'with --password') as DocmillError).message).toBe(cli.message);
    // Other errors pass through untouched.
    const other = new DocmillError(400, 'BAD_REQUEST', 'The PDF is damaged.');
    expect(withPasswordHint(other, 'with --password')).toBe(other);
    expect(withPasswordHint('not an error', 'with --password')).toBe('not an error');
  });
});

describe('encrypted OpenDocument', () => {
  const odp = fixture('odp', 'password.odp');

  it('decrypts a picture stored without compression: the same bytes as the source', async () => {
    const data = await parse(odp, { removeBase64Images: false }, { filename: 'p.odp', password: 'Pässwört-ß' });
    const uri = /!\[Gradient\]\(<?(data:image\/png;base64,[^)>]+)>?\)/.exec(data.markdown ?? '')?.[1];
    expect(uri).toBeDefined();
    const png = Uint8Array.from(atob((uri as string).split(',')[1] as string), (c) => c.charCodeAt(0));
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.length).toBe(467);
  });

  it('refuses a part that does not decrypt once another did (damage, not the password)', async () => {
    const zip = await JSZip.loadAsync(fixture('odt', 'password-aes.odt'));
    const styles = new Uint8Array(await (zip.file('styles.xml') as JSZip.JSZipObject).async('uint8array'));
    styles[100] = (styles[100] as number) ^ 0xff;
    zip.file('styles.xml', styles, { compression: 'STORE' });
    const bytes = new Uint8Array(await zip.generateAsync({ type: 'uint8array' }));
    // content.xml opens first and proves the password; styles.xml is optional: a warning, not a failure.
    const data = await parse(bytes, {}, { filename: 'x.odt', password: PW });
    expect(data.markdown).toContain('# Quarterly Secrets');
    expect(data.warning).toMatch(/styles\.xml is damaged: the password that opens the others does not open it/);
  });

  it('names what it cannot decrypt, and bounds the key derivation', async () => {
    const variant = async (edit: (manifest: string) => string) => {
      const zip = await JSZip.loadAsync(fixture('odt', 'password-aes.odt'));
      const manifest = await (zip.file('META-INF/manifest.xml') as JSZip.JSZipObject).async('string');
      zip.file('META-INF/manifest.xml', edit(manifest));
      return new Uint8Array(await zip.generateAsync({ type: 'uint8array' }));
    };
    const gcm = await variant((m) => m.replaceAll('xmlenc#aes256-cbc', 'xmlenc11#aes256-gcm'));
    expect((await errorOf(parse(gcm, {}, { filename: 'x.odt', password: PW }))).message).toMatch(
      /encrypted with the cipher "http:\/\/www\.w3\.org\/2001\/04\/xmlenc11#aes256-gcm", which this engine does not read/,
    );
    const argon = await variant((m) => m.replaceAll('key-derivation-name="PBKDF2"', 'key-derivation-name="argon2id"'));
    expect((await errorOf(parse(argon, {}, { filename: 'x.odt', password: PW }))).message).toMatch(
      /the key derivation "argon2id"/,
    );
    const slow = await variant((m) => m.replaceAll('iteration-count="100000"', 'iteration-count="2000000000"'));
    const err = await errorOf(parse(slow, {}, { filename: 'x.odt', password: PW }));
    expect([err.status, err.message]).toEqual([400, expect.stringMatching(/iteration count is invalid/)]);
  });

  it('answers damaged encrypted packages with a result or a 400', { timeout: 180_000 }, async () => {
    const withPassword: typeof parse = (b, o, h) => parse(b, o, { ...h, password: PW });
    await expectSurvivesDamage(fixture('odt', 'password-blowfish.odt'), 'damaged.odt', 24, withPassword);
    await expectSurvivesDamage(fixture('sheet', 'password.ods'), 'damaged.ods', 24, withPassword);
  });
});

describe('encrypted PowerPoint 97–2003', () => {
  const locked = fixture('ppt', 'password.ppt');

  it('decrypts the pictures too', async () => {
    const opened = await parse(locked, { removeBase64Images: false }, { filename: 'p.ppt', password: PW });
    const plain = await parse(fixture('ppt', 'basic.ppt'), { removeBase64Images: false }, { filename: 'b.ppt' });
    expect(plain.markdown).toMatch(/data:image\/png;base64,/);
    expect(opened.markdown).toBe(plain.markdown);
  });

  it('reads a file whose properties are encrypted too (EncryptedSummary, no SummaryInformation)', async () => {
    // Before: refused as soon as an EncryptedSummary stream existed.
    const XLSX = await import('@e965/xlsx');
    const cfb = XLSX.CFB.read(locked, { type: 'array' });
    XLSX.CFB.utils.cfb_del(cfb, '/\x05SummaryInformation');
    XLSX.CFB.utils.cfb_add(cfb, '/EncryptedSummary', new Uint8Array(64));
    const bytes = new Uint8Array(XLSX.CFB.write(cfb, { type: 'array' }) as ArrayLike<number>);
    const data = await parse(bytes, {}, { filename: 'p.ppt', password: PW });
    expect(data.markdown).toContain('# Project Kickoff');
    expect(data.metadata.title).toBeUndefined();
  });

  it('answers damaged encrypted copies with a result or a 400', { timeout: 120_000 }, async () => {
    await expectSurvivesDamage(locked, 'damaged.ppt', 60, (b, o, h) => parse(b, o, { ...h, password: PW }));
  });
});
