import 'server-only';
import { notFound } from 'next/navigation';
import { findTenantByHost } from './tenancy.queries';
import type { Tenant } from './tenancy.types';

export type HostParams = Promise<{ host: string }>;

/** The host segment the proxy put in the path, decoded. */
export async function hostFromParams(params: HostParams): Promise<string> {
  return decodeURIComponent((await params).host);
}

/** The page's website, or the 404 page when no website answers to this host. */
export async function requireTenant(params: HostParams): Promise<Tenant> {
  const tenant = await findTenantByHost(await hostFromParams(params));
  if (!tenant) notFound();
  return tenant;
}
