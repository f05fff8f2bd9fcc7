import 'server-only';
import { lookup } from 'node:dns/promises';
import { isIPv4, isIPv6, type LookupFunction } from 'node:net';

/**
 * Where the platform may send a request a customer chose the address of (a dealership's lead
 * webhook): public unicast addresses only. A name is resolved and every address it has checked,
 * and the connection then goes to those checked addresses (pinnedLookup), so a DNS answer that
 * changes between the check and the connect (rebinding) cannot switch it to an internal one.
 * IP literals reach here as WHATWG URL spells them, which has already turned 2130706433, 0x7f.1
 * and 0177.0.0.1 into 127.0.0.1.
 */

export type ResolvedAddress = { address: string; family: 4 | 6 };
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** The address is not one we send to; the message says which and why (it is recorded as the delivery's error). */
export class RefusedAddressError extends Error {}

type Range4 = [base: string, prefix: number, what: string];

const IPV4_RANGES: Range4[] = [
  ['0.0.0.0', 8, 'this-network 0.0.0.0/8'],
  ['10.0.0.0', 8, 'private 10.0.0.0/8'],
  ['100.64.0.0', 10, 'shared carrier-grade NAT 100.64.0.0/10'],
  ['127.0.0.0', 8, 'loopback 127.0.0.0/8'],
  ['169.254.0.0', 16, 'link-local 169.254.0.0/16, cloud metadata among them'],
  ['172.16.0.0', 12, 'private 172.16.0.0/12'],
  ['192.0.0.0', 24, 'IETF protocol 192.0.0.0/24'],
  ['192.168.0.0', 16, 'private 192.168.0.0/16'],
  ['198.18.0.0', 15, 'benchmarking 198.18.0.0/15'],
  ['224.0.0.0', 4, 'multicast 224.0.0.0/4'],
  ['240.0.0.0', 4, 'reserved or broadcast 240.0.0.0/4'],
];

function ipv4Number(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inRange4(value: number, base: string, prefix: number): boolean {
  const size = 2 ** (32 - prefix);
  return Math.floor(value / size) === Math.floor(ipv4Number(base) / size);
}

function reason4(value: number): string | null {
  for (const [base, prefix, what] of IPV4_RANGES) if (inRange4(value, base, prefix)) return what;
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part and a zone id allowed). */
function ipv6Groups(ip: string): number[] {
  let s = ip.split('%')[0].toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    s = `${s.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, null];
  const part = (text: string) => (text ? text.split(':').map((g) => parseInt(g, 16)) : []);
  const front = part(head);
  const back = tail === null ? [] : part(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function reason6(groups: number[]): string | null {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups;
  const embedded4 = (hi: number, lo: number) => hi * 65_536 + lo;
  const zeroTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeroTo(8)) return 'unspecified ::';
  if (zeroTo(7) && g7 === 1) return 'loopback ::1';
  // IPv4 inside IPv6: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d), 6to4 (2002:aabb:ccdd::).
  const inner = (what: string, hi: number, lo: number) => {
    const r = reason4(embedded4(hi, lo));
    return r ? `${r}, inside an ${what} IPv6 address` : null;
  };
  if (zeroTo(5) && g5 === 0xffff) return inner('IPv4-mapped', g6, g7);
  if (zeroTo(6)) return inner('IPv4-compatible', g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && [g2, g3, g4, g5].every((g) => g === 0)) return inner('NAT64', g6, g7);
  if (g0 === 0x2002) return inner('6to4', g1, g2);
  if ((g0 & 0xfe00) === 0xfc00) return 'unique local fc00::/7';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local fe80::/10';
  if ((g0 & 0xffc0) === 0xfec0) return 'site-local fec0::/10';
  if ((g0 & 0xff00) === 0xff00) return 'multicast ff00::/8';
  return null;
}

/** Why an IP address is not a public one (loopback, private, link-local, …), or null when it is. */
export function nonPublicReason(ip: string): string | null {
  const bare = ip.replace(/^\[|\]$/g, '');
  if (isIPv4(bare)) return reason4(ipv4Number(bare));
  if (isIPv6(bare)) return reason6(ipv6Groups(bare));
  return 'not an IP address';
}

/**
 * The addresses a request to `url` may connect to: its host's (the literal, or every address the
 * name resolves to). Throws RefusedAddressError when any is not public, unless allowPrivate (a
 * test or a machine whose receivers are on its own network said so).
 */
export async function checkedAddresses(url: URL, options: { allowPrivate: boolean; resolve?: Resolver }): Promise<ResolvedAddress[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIPv4(host) ? 4 : isIPv6(host) ? 6 : 0;
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: host, family: literal }];
  else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch (error) {
      throw new Error(`could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    if (addresses.length === 0) throw new Error(`could not resolve ${host}: no addresses`);
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const reason = nonPublicReason(address);
      if (reason) throw new RefusedAddressError(`refused: ${literal ? host : `${host} resolves to ${address}, which`} is not a public address (${reason}); LEAD_WEBHOOK_ALLOW_PRIVATE=1 allows it`);
    }
  }
  return addresses;
}

/** A `lookup` for http(s).request that answers only the addresses already checked, never asking DNS again. */
export function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    if (wanted.length === 0) {
      callback(Object.assign(new Error('no checked address of that family'), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all) (callback as unknown as (error: null, all: ResolvedAddress[]) => void)(null, wanted);
    else callback(null, wanted[0].address, wanted[0].family);
  };
}
