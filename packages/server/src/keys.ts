/**
 * API keys: `Authorization: Bearer <key>` is checked against every configured key by comparing
 * SHA-256 digests in constant time (no early exit on the first differing byte, no early exit on the
 * first matching key), so response timing says nothing about how close a guess was.
 */

export interface ApiKey {
  /** Name used in logs and audit events; the key itself is never logged. */
  id: string;
  key: string;
  /** Pages this key may parse in the lifetime of the process (per replica); unset = unlimited. */
  pageQuota?: number;
}

interface StoredKey {
  id: string;
  digest: Uint8Array;
  pageQuota: number | undefined;
}

const encoder = new TextEncoder();
const sha256 = async (s: string) => new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(s)));

function equalDigests(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] ?? 0);
  return diff === 0;
}

export interface KeyStore {
  readonly size: number;
  /** The matching key's id and quota, or undefined. */
  match(presented: string): Promise<{ id: string; pageQuota: number | undefined } | undefined>;
}

export async function createKeyStore(keys: readonly ApiKey[]): Promise<KeyStore> {
  const stored: StoredKey[] = await Promise.all(
    keys.map(async (k) => ({ id: k.id, digest: await sha256(k.key), pageQuota: k.pageQuota })),
  );
  return {
    size: stored.length,
    async match(presented) {
      const digest = await sha256(presented);
      let found: StoredKey | undefined;
      for (const k of stored) if (equalDigests(digest, k.digest) && !found) found = k;
      return found && { id: found.id, pageQuota: found.pageQuota };
    },
  };
}

/**
 * Parses `DOCMILL_API_KEYS`: entries separated by commas or newlines, each `key` or `id:key`
 * (an id makes logs readable; without one the id is `key-<n>`, its position in the list).
 */
export function parseKeyList(text: string): ApiKey[] {
  return text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter((s) => s && !s.startsWith('#'))
    .map((entry, i) => {
      const colon = entry.indexOf(':');
      return colon > 0
        ? { id: entry.slice(0, colon), key: entry.slice(colon + 1) }
        : { id: `key-${i + 1}`, key: entry };
    })
    .filter((k) => k.key.length > 0);
}

/**
 * Parses a keys file: either the same list format as the env variable, or a JSON array of
 * `{id, key, pageQuota?}` (the only way to give a key a page quota).
 */
export function parseKeyFile(text: string): ApiKey[] {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[')) return parseKeyList(text);
  const raw: unknown = JSON.parse(trimmed);
  if (!Array.isArray(raw)) throw new Error('The keys file must hold a JSON array of {id, key, pageQuota?}.');
  return raw.map((entry, i) => {
    const e = entry as Partial<ApiKey>;
    if (typeof e.key !== 'string' || !e.key) throw new Error(`Keys file entry ${i + 1} has no "key" string.`);
    if (e.pageQuota !== undefined && !(Number.isInteger(e.pageQuota) && e.pageQuota >= 0)) {
      throw new Error(`Keys file entry ${i + 1}: "pageQuota" must be a non-negative integer.`);
    }
    const key: ApiKey = { id: typeof e.id === 'string' && e.id ? e.id : `key-${i + 1}`, key: e.key };
    if (e.pageQuota !== undefined) key.pageQuota = e.pageQuota;
    return key;
  });
}
