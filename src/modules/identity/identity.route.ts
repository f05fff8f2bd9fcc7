import type { Metadata } from 'next';
import type { Tenant } from '../tenancy/tenancy.types';

/** Route helpers of the garage page (pure), kept apart from its components so a route can ask without loading them. */

/** Whether `path` is this website's garage page (/my-garage, or a path of its own such as /mymotorama/saved). */
export function isGaragePath(tenant: Tenant, path: string): boolean {
  return tenant.config.garage.enabled && tenant.config.garage.path === path;
}

export const GARAGE_METADATA: Metadata = { title: 'My garage', robots: { index: false, follow: false } };
