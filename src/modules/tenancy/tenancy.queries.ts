import 'server-only';
import { cache } from 'react';
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { getDatabase, getDb, type Db } from '@/db';
import { queryPrepared } from '@/db/prepared';
import { manufacturers, navigationItems, websiteDomains, websiteGenerations, websites, carGenerations } from './tenancy.schema';
import { generationsReadWith, memoWhileWebsiteUnchanged, rememberGenerations, websiteGeneration } from './tenancy.memo';
import { knownGenerations, learnGenerations } from './tenancy.generations';
import { parseWebsiteConfig } from './tenancy.config';
import { devHostsAnswer } from '@/lib/demo-access';
import { devHostForSlug, slugFromDevHost } from '@/lib/host';
import type { DemoSite, Navigation, NavigationItem, Tenant } from './tenancy.types';

function tenantQuery(db: Db, where: SQL) {
  return db.select({ website: websites, manufacturer: manufacturers }).from(websites).leftJoin(manufacturers, eq(manufacturers.id, websites.manufacturerId)).where(where).limit(1);
}

/**
 * A website's id and its generations (see Generations), without its settings: the statement every
 * request runs. Through queryPrepared, whose plan is kept: on PGlite, Drizzle's extended protocol
 * parses and plans it on every call, about three times the CPU of executing the kept plan.
 */
function readGenerations(db: Db, where: SQL): Promise<{ id: number; website: number | string | null; cars: number | string | null }[]> {
  return queryPrepared(
    db,
    sql`select ${websites.id} as id, ${websiteGenerations.generation} as website, ${carGenerations.generation} as cars
        from ${websites}
        left join ${websiteGenerations} on ${websiteGenerations.websiteId} = ${websites.id}
        left join ${carGenerations} on ${carGenerations.websiteId} = ${websites.id}
        where ${where} limit 1`,
  );
}

/** The website and its manufacturer by id, built once per database and prepared. */
function prepareLookups(db: Db) {
  return { byId: tenantQuery(db, eq(websites.id, sql.placeholder('id'))).prepare('tenant_by_id') };
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareLookups>>();

function lookupsFor(db: Db) {
  let lookups = prepared.get(db);
  if (!lookups) prepared.set(db, (lookups = prepareLookups(db)));
  return lookups;
}

/**
 * Websites as read before, per database (tests open fresh ones with the same ids), each with the
 * website generation it was read at: a tenant is read again, and its settings parsed again, only
 * when that generation has moved (any change to the website row but its stock counters bumps it,
 * migration 0013). Shared between requests, so callers must not change a tenant.
 */
const tenantsByDb = new WeakMap<Db, Map<number, { generation: string; tenant: Tenant }>>();

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
 * The website for a normalised host (see normalizeHost): `{slug}.localhost` (demo mode only), or a row of
 * website_domains. Null when no website answers to it. Cached for the request.
 */
export const findTenantByHost = cache(async (host: string): Promise<Tenant | null> => {
  const devSlug = devHostsAnswer() ? slugFromDevHost(host) : null;
  const handle = await getDatabase();
  const db = handle.db;
  const [found] = await readGenerations(
    db,
    devSlug ? sql`${websites.slug} = ${devSlug}` : sql`${websites.id} = (select ${websiteDomains.websiteId} from ${websiteDomains} where ${websiteDomains.host} = ${host})`,
  );
  if (!found) return null;
  const generations = { website: String(found.website ?? 0), cars: String(found.cars ?? 0) };
  rememberGenerations(found.id, generations);
  learnGenerations(handle, found.id, generations);
  let tenants = tenantsByDb.get(db);
  if (!tenants) tenantsByDb.set(db, (tenants = new Map()));
  const held = tenants.get(found.id);
  if (held?.generation === generations.website) return held.tenant;
  // Read after the generation: if the website changes in between, this newer copy is kept under the
  // older generation, and the next request reads it again.
  const [row] = await lookupsFor(db).byId.execute({ id: found.id });
  if (!row) return null;
  const tenant = toTenant(row);
  tenants.set(found.id, { generation: generations.website, tenant });
  return tenant;
});

export async function findTenantById(websiteId: number): Promise<Tenant | null> {
  const [row] = await lookupsFor(await getDb()).byId.execute({ id: websiteId });
  return row ? toTenant(row) : null;
}

/**
 * What a website's pages show apart from its cars, as one string: its website generation, bumped
 * by triggers with every change to its settings, domains, dealerships, navigation, search pages,
 * locations, special hours and content (migration 0013). A cached page is served only while this
 * is unchanged (src/lib/page-cache.ts); pages that show cars use stockListingVersion, which
 * includes it.
 */
export function websiteVersion(tenant: Tenant): string | Promise<string> {
  // In a render, what the tenant lookup read with the website; on a page-cache hit, the process's at
  // once (knownGenerations, decision 055); otherwise read and kept.
  return (generationsReadWith(tenant.id) ?? knownGenerations(tenant.id))?.website ?? websiteGeneration(tenant.id);
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
