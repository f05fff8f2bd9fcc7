import type { Tenant } from '../tenancy.types';

/** 'Parramatta, NSW'; the override city where set; a region named like its city once ('Auckland'). */
export function placeName(tenant: Pick<Tenant, 'city' | 'state' | 'overrideCity'>): string {
  const city = (tenant.overrideCity ?? tenant.city).trim();
  const state = tenant.state.trim();
  return [city, state.toLowerCase() === city.toLowerCase() ? '' : state].filter(Boolean).join(', ');
}
