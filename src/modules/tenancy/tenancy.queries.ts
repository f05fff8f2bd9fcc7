import 'server-only';
import { cache } from 'react';
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { getDb, type Db } from '@/db';
import { manufacturers, navigationItems, websiteDomains, websites } from './tenancy.schema';
import { memoWhileWebsiteUnchanged, websiteGeneration } from './tenancy.memo';
import { parseWebsiteConfig } from './tenancy.config';
import { devHostForSlug, slugFromDevHost } from './tenancy.host';
import type { DemoSite, Navigation, NavigationItem, Tenant } from './tenancy.types';

function tenantQuery(db: Db, where: SQL) {
  return db.select({ website: websites, manufacturer: manufacturers }).from(websites).leftJoin(manufacturers, eq(manufacturers.id, websites.manufacturerId)).where(where).limit(1);
}

/**
 * The lookups every request makes (by development host slug, by domain), built once per database
 * and prepared: neither Drizzle nor PostgreSQL plans them again on each request.
 */
function prepareLookups(db: Db) {
  return {
    bySlug: tenantQuery(db, eq(websites.slug, sql.placeholder('slug'))).prepare('tenant_by_slug'),
    byHost: tenantQuery(db, sql`${websites.id} = (select ${websiteDomains.websiteId} from ${websiteDomains} where ${websiteDomains.host} = ${sql.placeholder('host')})`).prepare('tenant_by_host'),
  };
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareLookups>>();

function lookupsFor(db: Db) {
  let lookups = prepared.get(db);
  if (!lookups) prepared.set(db, (lookups = prepareLookups(db)));
  return lookups;
}

function toTenant({ website, manufacturer }: { website: typeof websites.$inferSelect; manufacturer: typeof manufacturers.$inferSelect | null }): Tenant {
  return {
    id: website.id,
    slug: website.slug,
    name: website.name,
    template: website.template,
    phone: website.phone,
    logoUrl: website.logoUrl,
    url: website.url,
    city: website.city,
    state: website.state,
    overrideCity: website.overrideCity,
    dealershipGroup: website.dealershipGroup,
    manufacturer: manufacturer
      ? { id: manufacturer.id, slug: manufacturer.slug, displayName: manufacturer.displayName }
      : null,
    config: parseWebsiteConfig(website.config),
  };
}

/**
 * The website for a normalised host (see normalizeHost): `{slug}.localhost`, or a row of
 * website_domains. Null when no website answers to it. Cached for the request.
 */
export const findTenantByHost = cache(async (host: string): Promise<Tenant | null> => {
  const devSlug = slugFromDevHost(host);
  const lookups = lookupsFor(await getDb());
  const [row] = devSlug ? await lookups.bySlug.execute({ slug: devSlug }) : await lookups.byHost.execute({ host });
  return row ? toTenant(row) : null;
});

export async function findTenantById(websiteId: number): Promise<Tenant | null> {
  const [row] = await tenantQuery(await getDb(), eq(websites.id, websiteId));
  return row ? toTenant(row) : null;
}

/**
 * What a website's pages show apart from its cars, as one string: its website generation, bumped
 * by triggers with every change to its settings, domains, dealerships, navigation, search pages,
 * locations, special hours and content (migration 0013). A cached page is served only while this
 * is unchanged (src/lib/page-cache.ts); pages that show cars use stockListingVersion, which
 * includes it.
 */
export function websiteVersion(tenant: Tenant): Promise<string> {
  return websiteGeneration(tenant.id);
}

/** Header and footer menus with their dropdowns, in position order (shared: do not change it). */
export function getNavigation(tenant: Tenant): Promise<Navigation> {
  return memoWhileWebsiteUnchanged(tenant, 'navigation', () => loadNavigation(tenant));
}

async function loadNavigation(tenant: Tenant): Promise<Navigation> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(navigationItems)
    .where(eq(navigationItems.websiteId, tenant.id))
    .orderBy(asc(navigationItems.menu), asc(navigationItems.position), asc(navigationItems.id));
  const byId = new Map<number, NavigationItem>();
  for (const row of rows) byId.set(row.id, { id: row.id, name: row.name, url: row.url, dropdownItems: [] });
  const navigation: Navigation = { header: [], footer: [] };
  for (const row of rows) {
    const item = byId.get(row.id)!;
    const parent = row.parentId != null ? byId.get(row.parentId) : undefined;
    if (parent) parent.dropdownItems.push(item);
    else navigation[row.menu].push(item);
  }
  return navigation;
}

/** The demo directory on plain localhost: every website with its development host. */
export async function listDemoSites(): Promise<DemoSite[]> {
  const db = await getDb();
  const rows = await db
    .select({ slug: websites.slug, name: websites.name, config: websites.config, city: websites.city, state: websites.state })
    .from(websites)
    .orderBy(asc(websites.id));
  return rows.map((r) => ({
    slug: r.slug,
    name: r.name,
    host: devHostForSlug(r.slug),
    locale: parseWebsiteConfig(r.config).locale,
    city: r.city,
    state: r.state,
  }));
}
