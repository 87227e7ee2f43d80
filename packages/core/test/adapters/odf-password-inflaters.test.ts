import { createCipheriv, createHash, pbkdf2Sync } from 'node:crypto';
import { deflateRawSync, gzipSync } from 'node:zlib';
import JSZip from 'jszip';
import { describe, expect, it, vi } from 'vitest';
import { parse } from '../../src/index.ts';

/**
 * The encrypted-ODF and gzip paths under both raw inflaters: Node's zlib and the fflate one browsers
 * load (`platform/inflate.ts`), chosen per test through the platform seam's loader.
 */
const seam = vi.hoisted(() => ({ browser: false }));
vi.mock('../../src/platform/inflate.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/platform/inflate.ts')>();
  return { ...real, loadInflateRaw: () => (seam.browser ? real.browserInflateRaw() : real.nodeInflateRaw()) };
});

const inflaters = [
  ['zlib (Node)', false],
  ['fflate (browsers)', true],
] as const;

const CONTENT =
  '<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:text><text:p>Only the right password reads this.</text:p></office:text></office:body></office:document-content>';
const SALT = Buffer.alloc(16, 7);
const IV = Buffer.alloc(16, 9);

/**
 * An ODT whose content.xml is AES-256-CBC encrypted with `password` and whose manifest gives no
 * checksum (`manifest:checksum` is optional in ODF 1.2 part 3 §4.8.3): nothing but the decrypted
 * data itself tells a wrong password. One PBKDF2 round, so that trying many passwords is cheap.
 */
async function odtWithoutChecksum(password: string): Promise<Uint8Array> {
  const startKey = createHash('sha256').update(password).digest();
  const key = pbkdf2Sync(startKey, SALT, 1, 32, 'sha1');
  const cipher = createCipheriv('aes-256-cbc', key, IV);
  const sealed = Buffer.concat([cipher.update(deflateRawSync(Buffer.from(CONTENT))), cipher.final()]);
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
 <manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml" manifest:size="${Buffer.byteLength(CONTENT)}">
  <manifest:encryption-data>
   <manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" manifest:initialisation-vector="${IV.toString('base64')}"/>
   <manifest:start-key-generation manifest:start-key-generation-name="http://www.w3.org/2000/09/xmldsig#sha256" manifest:key-size="32"/>
   <manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:key-size="32" manifest:iteration-count="1" manifest:salt="${SALT.toString('base64')}"/>
  </manifest:encryption-data>
 </manifest:file-entry>
</manifest:manifest>`;
  const zip = new JSZip();
  zip.file('mimetype', 'application/vnd.oasis.opendocument.text', { compression: 'STORE' });
  zip.file('META-INF/manifest.xml', manifest);
  zip.file('content.xml', sealed, { compression: 'STORE' });
  return zip.generateAsync({ type: 'uint8array' });
}

describe.each(inflaters)('an encrypted ODF part without a checksum, inflated by %s', (_, browser) => {
  it('opens with the right password', async () => {
    seam.browser = browser;
    const data = await parse(await odtWithoutChecksum('right'), {}, { filename: 'x.odt', password: 'right' });
    expect(data.markdown).toBe('Only the right password reads this.\n');
  });
  // Wrong passwords whose decryption unpads and inflates without error, found by trying
  // `wrong-0`, `wrong-1`, …: 781 and 10770 to a few bytes under fflate only (zlib refuses them),
  // 4017 and 4044 under both. Before, each gave an empty document instead of the password error.
  it.each(['wrong-781', 'wrong-4017', 'wrong-4044', 'wrong-10770'])(
    'refuses the wrong password %s with the password error, whatever the inflater lets through',
    async (password) => {
      seam.browser = browser;
      const err = await parse(await odtWithoutChecksum('right'), {}, { filename: 'x.odt', password }).catch((e) => e);
      expect([err.status, err.code, err.password]).toEqual([400, 'BAD_REQUEST', 'incorrect']);
      expect(err.message).toMatch(
        /^The OpenDocument file is password-protected and the password given does not open it\./,
      );
    },
  );
});

describe.each(inflaters)('gzip inflated by %s', (_, browser) => {
  const table = '# prices.csv\n\n| item | price |\n| --- | --- |\n| paper | 2.00 |\n';
  it('reads concatenated members and keeps what a cut body gives', async () => {
    seam.browser = browser;
    const two = new Uint8Array(Buffer.concat([gzipSync('item,price\n'), gzipSync('paper,2.00\n')]));
    expect((await parse(two, {}, { filename: 'prices.csv.gz' })).markdown).toBe(table);
    const rows = Array.from({ length: 400 }, (_, i) => `row ${i},${(i * 7919) % 1000}`).join('\n');
    const gz = gzipSync(`name,value\n${rows}\n`);
    const cut = await parse(gz.subarray(0, Math.floor(gz.length / 2)), {}, { filename: 'rows.csv.gz' });
    expect(cut.markdown).toContain('| row 0 | 0 |');
    expect(cut.markdown).not.toContain('row 399');
  });
  it('refuses a ratio bomb with the same message', async () => {
    seam.browser = browser;
    const err = await parse(gzipSync(Buffer.alloc(64 << 20)), {}, { filename: 'zeros.txt.gz' }).catch((e) => e);
    expect([err.status, err.code]).toEqual([400, 'BAD_REQUEST']);
    expect(err.message).toBe(
      'The gzip data expands more than 200× (limit maxCompressionRatio): refusing a likely bomb.',
    );
  });
});
