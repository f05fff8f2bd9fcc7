import 'server-only';
import { notFound } from 'next/navigation';
import { isDatabaseUnavailable } from '@/db/errors';
import { logger } from '@/lib/logger';
import { cachePageWhileVersionHolds } from '@/lib/page-cache';
import { markServiceUnavailable } from '@/lib/service-unavailable';
import { findTenantByHost, websiteVersion } from './tenancy.queries';
import type { Tenant } from './tenancy.types';

export const DATABASE_UNAVAILABLE = 'database-unavailable' as const;

/**
 * The website for a host, null for none, or DATABASE_UNAVAILABLE when the database cannot be
 * reached: the response then goes out as 503 (see src/lib/service-unavailable.ts) and the layout
 * shows a friendly 'try again' page instead of an error.
 */
export async function lookupTenant(host: string): Promise<Tenant | null | typeof DATABASE_UNAVAILABLE> {
  try {
    return await findTenantByHost(host);
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    markServiceUnavailable();
    logger.error({ err: error, host }, 'database unavailable');
    return DATABASE_UNAVAILABLE;
  }
}

export type HostParams = Promise<{ host: string }>;

/** The host segment the proxy put in the path, decoded. */
export async function hostFromParams(params: HostParams): Promise<string> {
  return decodeURIComponent((await params).host);
}

/** The page's website, or the 404 page when no website answers to this host. */
export async function requireTenant(params: HostParams): Promise<Tenant> {
  const tenant = await lookupTenant(await hostFromParams(params));
  // The layout already shows the unavailable page; the page itself has nothing to add.
  if (tenant === DATABASE_UNAVAILABLE) throw new DatabaseUnavailableError();
  if (!tenant) notFound();
  return tenant;
}

/**
 * For a page that shows the website's data and nothing about the visitor or its cars (content,
 * contact, locations): served again from the page cache until that data changes (websiteVersion;
 * pages showing cars pass stockListingVersion instead). Call it before reading the data.
 */
export function cachePageWhileWebsiteHolds(tenant: Tenant): Promise<void> {
  return cachePageWhileVersionHolds(() => websiteVersion(tenant));
}

export class DatabaseUnavailableError extends Error {
  code = '08006';
  constructor() {
    super('The database is unavailable');
  }
}
