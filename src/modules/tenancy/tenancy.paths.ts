import type { Tenant } from './tenancy.types';

/** Paths of a website's own pages, from its configuration (never from its slug). Client-safe. */

type PathTenant = Pick<Tenant, 'config'>;

export function carPath(tenant: PathTenant, slug: string): string {
  return `/${tenant.config.vehiclePath}/${slug}`;
}

export function searchPath(tenant: PathTenant, slug = tenant.config.search.defaultSlug): string {
  return `/search/${slug}`;
}

/** Stock link segment by car type (SPEC §2): used-cars, demo-cars, new-cars. */
export function carTypeSearchPath(carType: 'new' | 'used' | 'demo'): string {
  return `/search/${carType}-cars`;
}

export function garagePath(tenant: PathTenant): string {
  return tenant.config.garage.path;
}

/**
 * Where canonical URLs point: the website's configured address (scheme optional, https assumed),
 * else the host the request came in on (http for development hosts).
 */
export function siteOrigin(tenant: Pick<Tenant, 'url'>, host: string): URL {
  if (tenant.url) {
    try {
      return new URL(new URL(/^https?:\/\//i.test(tenant.url) ? tenant.url : `https://${tenant.url}`).origin);
    } catch {
      // An unparsable configured address: fall back to the request's host.
    }
  }
  const local = host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1';
  return new URL(`${local ? 'http' : 'https'}://${host}`);
}

export function absoluteSiteUrl(tenant: Pick<Tenant, 'url'>, host: string, path: string): string {
  return new URL(path, siteOrigin(tenant, host)).toString();
}
