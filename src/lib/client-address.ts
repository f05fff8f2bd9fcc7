import { isIP } from 'node:net';

/**
 * Who the client is, for every limit (rate-limit.ts) and record that names an address.
 *
 * The address comes from the TCP socket. Only when TRUSTED_PROXY_HOPS says that N proxies stand in
 * front of the app (a load balancer, a CDN) is X-Forwarded-For read, and then only its N-th entry
 * from the right: the address the outermost trusted proxy saw. Entries further left are the
 * client's own words and never count, so a forged header cannot reset a limit.
 *
 * The request hook (request-hooks.ts) works the address out once per request, from the socket it
 * alone can see, and hands it to route handlers in CLIENT_ADDRESS_HEADER after removing any copy
 * the client sent.
 */

export const CLIENT_ADDRESS_HEADER = 'x-dealer-client-address';

/** The client's address from the socket's and the forwarded chain; null when none is usable. */
export function resolveClientAddress(socketAddress: string | undefined | null, forwardedFor: string | string[] | undefined | null, trustedHops: number): string | null {
  let address = socketAddress ?? null;
  if (trustedHops > 0) {
    const chain = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    // Fewer entries than trusted hops: the request skipped a proxy; the leftmost is the best we have.
    if (chain.length > 0) address = chain[Math.max(0, chain.length - trustedHops)];
  }
  return normaliseAddress(address);
}

/** An IP address in one spelling (IPv4-mapped IPv6 as IPv4, IPv6 lower-case, no port or zone); null otherwise. */
export function normaliseAddress(value: string | null): string | null {
  if (!value) return null;
  let address = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(address)) address = address.replace(/:\d+$/, '');
  address = address.replace(/%.*$/, '').toLowerCase();
  if (address.startsWith('::ffff:') && isIP(address.slice(7)) === 4) address = address.slice(7);
  return isIP(address) ? address : null;
}

/** The client address the request hook found (route handlers); null outside a server request. */
export function clientAddress(request: Request): string | null {
  return normaliseAddress(request.headers.get(CLIENT_ADDRESS_HEADER));
}
