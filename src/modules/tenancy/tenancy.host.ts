/** Host handling shared by the request hooks, the page cache and the tenancy lookups (no database here). */

const HOST_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const DEV_SUFFIX = '.localhost';

/** Lowercase host without port, or null when the header is not a plausible host name. */
export function normalizeHost(header: string | null | undefined): string | null {
  if (!header) return null;
  let host = header.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end > 0 ? host.slice(0, end + 1) : null;
  }
  const colon = host.indexOf(':');
  if (colon >= 0) host = host.slice(0, colon);
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
