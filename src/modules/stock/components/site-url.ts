import type { Tenant } from '@/modules/tenancy/tenancy.types';

/**
 * Absolute URL of a path on this website, for canonical links: the website's configured URL
 * (scheme optional, https assumed), else the host the request came in on (http for development
 * hosts).
 */
export function absoluteSiteUrl(tenant: Pick<Tenant, 'url'>, host: string, path: string): string {
  let origin: string | null = null;
  if (tenant.url) {
    try {
      origin = new URL(/^https?:\/\//i.test(tenant.url) ? tenant.url : `https://${tenant.url}`).origin;
    } catch {
      origin = null;
    }
  }
  if (!origin) {
    const local = host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1';
    origin = `${local ? 'http' : 'https'}://${host}`;
  }
  return new URL(path, origin).toString();
}
