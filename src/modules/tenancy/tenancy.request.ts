import 'server-only';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { isDatabaseUnavailable } from '@/db/errors';
import { logger } from '@/lib/logger';
import { cachePageWhileVersionHolds } from '@/lib/page-cache';
import { markServiceUnavailable } from '@/lib/service-unavailable';
import { normalizeHost } from '@/lib/host';
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

/**
 * The request's host, from its Host header, normalised (case, port, trailing dot: normalizeHost);
 * null when the header is not a plausible host name. The one way pages, layouts, metadata and
 * route handlers learn which website was asked for: the site's routes sit at the root of the app,
 * with no host in their path (decision 045).
 */
export async function requestHost(): Promise<string | null> {
  return normalizeHost((await headers()).get('host'));
}

/** The request's host for a page that already has its website (requireTenant): 404 without one. */
export async function requireHost(): Promise<string> {
  const host = await requestHost();
  if (!host) notFound();
  return host;
}

/**
 * The request's website, as lookupTenant answers for its host; null, without asking the database,
 * when the Host header is not a host name.
 */
export async function requestTenant(): Promise<Tenant | null | typeof DATABASE_UNAVAILABLE> {
  const host = await requestHost();
  return host ? lookupTenant(host) : null;
}

/** The page's website, or the 404 page when no website answers to the request's host. */
export async function requireTenant(): Promise<Tenant> {
  const tenant = await requestTenant();
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
