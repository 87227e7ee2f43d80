/**
 * Which resolved addresses /v2/scrape refuses to connect to: anything that is not the public
 * internet (loopback, RFC 1918, CGNAT, link-local with the cloud metadata endpoints, multicast,
 * reserved and documentation ranges), in IPv4, IPv6 and IPv4 embedded in IPv6.
 */

type Range = readonly [base: bigint, prefix: number, label: string];

function parseV4(ip: string): bigint | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = (n << 8n) | BigInt(Number(p));
  }
  return n;
}

function parseV6(ip: string): bigint | undefined {
  let s = ip.toLowerCase().replace(/^\[|\]$/g, '');
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  // A trailing dotted quad (::ffff:1.2.3.4) becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const v4 = parseV4(dotted[1] as string);
    if (v4 === undefined) return undefined;
    s = `${s.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? (halves[0] as string).split(':') : [];
  const tail = halves.length === 2 && halves[1] ? (halves[1] as string).split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let n = 0n;
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return undefined;
    n = (n << 16n) | BigInt(Number.parseInt(g, 16));
  }
  return n;
}

const v4 = (cidr: string, label: string): Range => {
  const [ip, bits] = cidr.split('/') as [string, string];
  return [parseV4(ip) as bigint, Number(bits), label];
};
const v6 = (cidr: string, label: string): Range => {
  const [ip, bits] = cidr.split('/') as [string, string];
  return [parseV6(ip) as bigint, Number(bits), label];
};

const V4_BLOCKED: Range[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'shared (CGNAT)'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local / cloud metadata'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'IETF protocol assignments'),
  v4('192.0.2.0/24', 'documentation'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'benchmarking'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];
const V6_BLOCKED: Range[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('fc00::/7', 'unique local (private)'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'site-local'),
  v6('ff00::/8', 'multicast'),
  v6('2001:db8::/32', 'documentation'),
  v6('100::/64', 'discard'),
  v6('64:ff9b:1::/48', 'local-use NAT64'),
];

const inRange = (n: bigint, width: number, [base, prefix]: Range) => {
  const shift = BigInt(width - prefix);
  return n >> shift === base >> shift;
};

/**
 * IPv4 carried inside IPv6 (mapped, compatible, SIIT-translated, NAT64, 6to4): judged as the IPv4
 * address it carries, since a translator or the host's own stack may deliver it there.
 */
function embeddedV4(n: bigint): bigint | undefined {
  const high96 = n >> 32n;
  if (high96 === 0xffffn || high96 === 0n) return n & 0xffffffffn; // ::ffff:a.b.c.d, ::a.b.c.d
  if (high96 === 0xffff0000n) return n & 0xffffffffn; // ::ffff:0:a.b.c.d (SIIT, RFC 2765)
  if (high96 === 0x64ff9b0000000000000000n) return n & 0xffffffffn; // 64:ff9b::/96
  if (n >> 112n === 0x2002n) return (n >> 80n) & 0xffffffffn; // 2002:aabb:ccdd::/48 (6to4)
  return undefined;
}

export type IpFamily = 4 | 6;

export function ipFamily(ip: string): IpFamily | undefined {
  if (parseV4(ip) !== undefined) return 4;
  if (ip.includes(':') && parseV6(ip) !== undefined) return 6;
  return undefined;
}

/** Why an address is not public, or undefined when it is. Unparseable input counts as blocked. */
export function blockedReason(ip: string): string | undefined {
  const a = parseV4(ip);
  if (a !== undefined) return V4_BLOCKED.find((r) => inRange(a, 32, r))?.[2];
  const b = parseV6(ip);
  if (b === undefined) return 'not an IP address';
  const inner = embeddedV4(b);
  if (inner !== undefined && b !== 0n && b !== 1n) return V4_BLOCKED.find((r) => inRange(inner, 32, r))?.[2];
  return V6_BLOCKED.find((r) => inRange(b, 128, r))?.[2];
}

/**
 * `allow` is the operator's exception list: `true` allows everything, or a list of addresses and
 * CIDR ranges (`10.1.0.0/16`, `127.0.0.1`, `::1`) that may be fetched although not public.
 */
export function isAllowed(ip: string, allow: boolean | readonly string[]): boolean {
  if (blockedReason(ip) === undefined || allow === true) return true;
  if (allow === false) return false;
  const n4 = parseV4(ip);
  const n6 = n4 === undefined ? parseV6(ip) : undefined;
  return allow.some((entry) => {
    const [base, bits] = entry.split('/') as [string, string | undefined];
    const b4 = parseV4(base);
    if (b4 !== undefined && n4 !== undefined) return inRange(n4, 32, [b4, bits ? Number(bits) : 32, '']);
    const b6 = parseV6(base);
    if (b6 !== undefined && n6 !== undefined) return inRange(n6, 128, [b6, bits ? Number(bits) : 128, '']);
    return false;
  });
}
