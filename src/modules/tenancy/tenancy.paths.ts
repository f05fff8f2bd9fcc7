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
