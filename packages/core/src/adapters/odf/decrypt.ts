/**
 * Password-encrypted OpenDocument packages (ODF 1.2 part 3, §3.8 and §4.8 of its manifest schema):
 * each part named in META-INF/manifest.xml with `<manifest:encryption-data>` was deflated, then
 * encrypted with a key derived from the password: a start key (SHA-1 or SHA-256 of the UTF-8
 * password), stretched by PBKDF2 (HMAC-SHA-1) with the part's own salt and iteration count, then
 * AES-CBC (LibreOffice, ODF 1.2+) or Blowfish-CFB (OpenOffice.org, ODF 1.0/1.1) with the part's IV.
 * A digest of the first 1024 decrypted bytes tells a wrong password from a right one; where the
 * manifest gives none, data that does not inflate or an XML part that does not read as XML.
 *
 * The package is handed to the adapters as if it had never been encrypted: parts decrypt as they are
 * read, and the manifest no longer names encryption data.
 */
import { badInput, DocmillError, passwordError, throwIfAborted } from '../../errors.ts';
import { blowfishCfbDecrypt } from '../../util/blowfish.ts';
import { equalBytes } from '../../util/bytes.ts';
import { bomEncoding } from '../../util/charset.ts';
import { inflateRaw } from '../../util/inflate.ts';
import { aesCbc, digest, fromBase64, type Hash, pbkdf2 } from '../../util/webcrypto.ts';
import { attr, kid, kids, parseXml, type XmlElement } from '../../util/xml.ts';
import { decodeUtf8, RATIO_CHECK_FROM, type SafeZip } from '../../util/zip.ts';
import type { AdapterContext } from '../types.ts';

const MANIFEST = 'META-INF/manifest.xml';
/** LibreOffice uses 100,000 rounds, OpenOffice.org 1,024; far more would only burn the caller's time. */
const MAX_ITERATIONS = 10_000_000;

interface Sealed {
  /** Size of the part before it was deflated, from the manifest. */
  size: number | undefined;
  cipher: 'aes-cbc' | 'blowfish-cfb';
  iv: Uint8Array;
  salt: Uint8Array;
  iterations: number;
  keyBytes: number;
  startKey: Hash;
  checksum: { hash: Hash; value: Uint8Array } | undefined;
  /** An XML part (by media type or name): what a right password gives is a whole XML document. */
  xml: boolean;
}

const refused = (what: string) =>
  badInput(`The OpenDocument file is encrypted with ${what}, which this engine does not read.`);

/** Hash named by an xmldsig/xmlenc URI or by OpenOffice.org's short names. */
function hashNamed(name: string | undefined, fallback: Hash): Hash | undefined {
  if (name === undefined) return fallback;
  const id = (name.split('#').pop() ?? '').toLowerCase().replace(/[-/]?1k$/, '');
  return ({ sha1: 'SHA-1', sha256: 'SHA-256', sha384: 'SHA-384', sha512: 'SHA-512' } as const)[id];
}

function sealedPart(entry: XmlElement, data: XmlElement): Sealed {
  const algorithm = kid(data, 'algorithm');
  const derivation = kid(data, 'key-derivation');
  const start = kid(data, 'start-key-generation');
  const algorithmName = attr(algorithm, 'manifest:algorithm-name') ?? '';
  const cipher = /aes(128|192|256)-cbc$/i.test(algorithmName)
    ? 'aes-cbc'
    : /blowfish/i.test(algorithmName)
      ? 'blowfish-cfb'
      : undefined;
  if (!cipher) throw refused(algorithmName ? `the cipher "${algorithmName}"` : 'an unnamed cipher');
  const kdf = attr(derivation, 'manifest:key-derivation-name') ?? '';
  if (kdf !== 'PBKDF2') throw refused(kdf ? `the key derivation "${kdf}"` : 'a key held outside the file (OpenPGP)');
  const startKey = hashNamed(attr(start, 'manifest:start-key-generation-name'), 'SHA-1');
  if (!startKey) throw refused('an unknown start-key hash');
  const iterations = Number(attr(derivation, 'manifest:iteration-count'));
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > MAX_ITERATIONS)
    throw badInput('The OpenDocument file is encrypted and its key-derivation iteration count is invalid.');
  const keyBytes = Number(attr(derivation, 'manifest:key-size') ?? (cipher === 'aes-cbc' ? 32 : 16));
  const validKey = cipher === 'aes-cbc' ? [16, 24, 32].includes(keyBytes) : keyBytes >= 4 && keyBytes <= 56;
  const iv = fromBase64(attr(algorithm, 'manifest:initialisation-vector') ?? '');
  if (!validKey || iv.length !== (cipher === 'aes-cbc' ? 16 : 8))
    throw badInput('The OpenDocument file is encrypted and its encryption data is damaged (key size or IV).');
  const checksumType = attr(data, 'manifest:checksum-type');
  const checksumValue = attr(data, 'manifest:checksum');
  const checksumHash = checksumType === undefined ? undefined : hashNamed(checksumType, 'SHA-1');
  const size = Number(attr(entry, 'manifest:size'));
  return {
    size: Number.isSafeInteger(size) && size >= 0 ? size : undefined,
    cipher,
    iv,
    salt: fromBase64(attr(derivation, 'manifest:salt') ?? ''),
    iterations,
    keyBytes,
    startKey,
    checksum: checksumHash && checksumValue ? { hash: checksumHash, value: fromBase64(checksumValue) } : undefined,
    xml:
      /xml/i.test(attr(entry, 'manifest:media-type') ?? '') ||
      /\.(xml|rdf)$/i.test(attr(entry, 'manifest:full-path') ?? ''),
  };
}

/** The encrypted parts the manifest names, by path. */
function sealedParts(manifest: XmlElement): Map<string, Sealed> {
  const out = new Map<string, Sealed>();
  for (const entry of kids(manifest, 'file-entry')) {
    const data = kid(entry, 'encryption-data');
    const path = attr(entry, 'manifest:full-path');
    if (!data || !path) continue;
    try {
      out.set(path.replace(/^\/+/, ''), sealedPart(entry, data));
    } catch (err) {
      // A salt or IV that is not base64 is damage.
      if (err instanceof DocmillError) throw err;
      throw badInput('The OpenDocument file is encrypted and its encryption data is damaged.', err);
    }
  }
  return out;
}

/** W3C XML Encryption padding: the last byte says how many bytes (1–16) are padding. */
function unpad(plain: Uint8Array): Uint8Array | undefined {
  const n = plain[plain.length - 1] ?? 0;
  return n >= 1 && n <= 16 && n <= plain.length ? plain.subarray(0, plain.length - n) : undefined;
}

/** The part's deflated bytes, or undefined when the password does not open it. */
async function openPart(sealed: Sealed, startKey: Uint8Array, raw: Uint8Array): Promise<Uint8Array | undefined> {
  const key = await pbkdf2('SHA-1', startKey, sealed.salt, sealed.iterations, sealed.keyBytes);
  const plain =
    sealed.cipher === 'aes-cbc' ? unpad(await aesCbc(key, sealed.iv, raw)) : blowfishCfbDecrypt(key, sealed.iv, raw);
  if (!plain) return undefined;
  if (sealed.checksum) {
    const sum = await digest(sealed.checksum.hash, plain.subarray(0, 1024));
    if (!equalBytes(sum, sealed.checksum.value)) return undefined;
  }
  return plain;
}

/**
 * Whether a decrypted XML part reads as one: text in its encoding without a single invalid sequence,
 * from `<` to `>`. With no checksum in the manifest this is what tells a wrong password: its
 * garbage sometimes unpads and inflates without error (to a few bytes), with fflate more often
 * than with zlib, and must not read as an empty document in one platform and a 400 in the other.
 */
function readsAsXml(b: Uint8Array): boolean {
  const encoding = bomEncoding(b)?.encoding ?? 'utf-8';
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(b).trim();
  } catch {
    return false;
  }
  return text.startsWith('<') && text.endsWith('>');
}

const withoutEncryptionData = (manifest: string): string =>
  manifest.replace(/<([\w.-]+:)?encryption-data\b[\s\S]*?<\/\1?encryption-data\s*>/g, '');

/**
 * The package as the adapters read it: the same zip when nothing is encrypted, else one whose parts
 * decrypt on read. A missing or wrong password is the password 400; a cipher or key derivation this
 * engine lacks (Argon2, AES-GCM, OpenPGP keys) is a 400 that names it.
 */
export async function decryptOdf(zip: SafeZip, ctx: AdapterContext): Promise<SafeZip> {
  const manifestText = await zip.text(MANIFEST).catch(() => undefined);
  if (!manifestText?.includes('encryption-data')) return zip;
  const sealed = sealedParts(parseXml(manifestText, ctx.limits, 'OpenDocument manifest'));
  if (!sealed.size) return zip;
  const password = ctx.password;
  if (password === undefined) throw passwordError('The OpenDocument file', password);
  const lower = new Map([...sealed.keys()].map((k) => [k.toLowerCase(), k]));
  const startKeys = new Map<Hash, Promise<Uint8Array>>();
  const startKey = (hash: Hash) => {
    const known = startKeys.get(hash);
    if (known) return known;
    const k = digest(hash, new TextEncoder().encode(password));
    startKeys.set(hash, k);
    return k;
  };
  let budget = ctx.limits.maxUnzippedBytes;
  let opened = false;

  const decrypt = async (name: string, part: Sealed): Promise<Uint8Array | undefined> => {
    const raw = await zip.bytes(name);
    if (!raw) return undefined;
    throwIfAborted(ctx.signal);
    const deflated = await openPart(part, await startKey(part.startKey), raw);
    // The first part decides: once one part opened, the password is right and a part it does not
    // open is damaged.
    const refuse = () =>
      opened
        ? badInput(`The encrypted part ${name} is damaged: the password that opens the others does not open it.`)
        : passwordError('The OpenDocument file', password);
    if (!deflated) throw refuse();
    let out = deflated;
    // Parts already compressed (pictures) are stored as they are: their size is the declared one.
    if (part.size === undefined || deflated.length !== part.size) {
      if (
        part.size !== undefined &&
        part.size > RATIO_CHECK_FROM &&
        part.size / Math.max(1, deflated.length) > ctx.limits.maxCompressionRatio
      )
        throw badInput(
          `The encrypted part ${name} expands past the ${ctx.limits.maxCompressionRatio}× zip-bomb limit.`,
        );
      const cap = Math.min(budget, (part.size ?? budget) + 1024);
      try {
        out = await inflateRaw(deflated, cap, `The encrypted part ${name}`, ctx.signal);
      } catch (err) {
        // Without a checksum, data that does not inflate is the only sign of a wrong password.
        if (!part.checksum && !ctx.signal.aborted) throw refuse();
        throw err;
      }
      budget -= out.length;
    }
    if (!part.checksum && part.xml && !readsAsXml(out)) throw refuse();
    opened = true;
    return out;
  };

  const bytes = async (name: string): Promise<Uint8Array | undefined> => {
    const key = name.replace(/^\/+/, '');
    if (key.toLowerCase() === MANIFEST.toLowerCase())
      return new TextEncoder().encode(withoutEncryptionData(manifestText));
    const path = sealed.has(key) ? key : lower.get(key.toLowerCase());
    const part = path === undefined ? undefined : sealed.get(path);
    return part ? decrypt(path as string, part) : zip.bytes(name);
  };
  return {
    names: zip.names,
    has: (name) => zip.has(name),
    bytes,
    async text(name) {
      const b = await bytes(name);
      return b && decodeUtf8(b);
    },
  };
}
