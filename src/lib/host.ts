/** Host handling shared by the request hooks, the page cache and the tenancy lookups (no database here). */

const HOST_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const DEV_SUFFIX = '.localhost';

/** An optional port after the host: a colon and 1 to 5 digits, nothing else (no userinfo, path or second host). */
const PORT_SUFFIX = /^(:\d{1,5})?$/;

/**
 * Lowercase host without port, or null when the header is not a plausible host name. Anything but
 * `name[:port]` is refused whole, not cut at the first colon: `a.localhost:80@evil.example` (userinfo
 * form, where a URL parser reads evil.example) or `a.localhost:80/x` names no host here.
 */
export function normalizeHost(header: string | null | undefined): string | null {
  if (!header) return null;
  let host = header.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end > 0 && PORT_SUFFIX.test(host.slice(end + 1)) ? host.slice(0, end + 1) : null;
  }
  const colon = host.indexOf(':');
  if (colon >= 0) {
    if (!PORT_SUFFIX.test(host.slice(colon))) return null;
    host = host.slice(0, colon);
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.length === 0 || host.length > 253) return null;
  if (LOOPBACK_HOSTS.has(host)) return host;
  return HOST_PATTERN.test(host) ? host : null;
}

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host);
}

/** `{website-slug}.localhost` always names that website, whatever its domains. */
export function slugFromDevHost(host: string): string | null {
  if (!host.endsWith(DEV_SUFFIX)) return null;
  const slug = host.slice(0, -DEV_SUFFIX.length);
  return /^[a-z0-9][a-z0-9-]*$/.test(slug) ? slug : null;
}

export function devHostForSlug(slug: string): string {
  return `${slug}${DEV_SUFFIX}`;
}
