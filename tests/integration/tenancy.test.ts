import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { findTenantByHost, findTenantById, getNavigation } from '@/modules/tenancy/tenancy.queries';
import { navigationItems, websiteDomains, websites } from '@/modules/tenancy/tenancy.schema';

describe('tenant resolution', () => {
  let db: Db;
  let a: number;
  let b: number;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    [{ id: a }, { id: b }] = await db
      .insert(websites)
      .values([
        { slug: 'alpha-motors', name: 'Alpha Motors', config: { locale: 'en-NZ', currency: 'NZD' } },
        { slug: 'beta-cars', name: 'Beta Cars', config: {} },
      ])
      .returning({ id: websites.id });
    await db.insert(websiteDomains).values([
      { websiteId: a, host: 'www.alpha.example', primary: true },
      { websiteId: b, host: 'beta.example', primary: true },
    ]);
    const [parent] = await db
      .insert(navigationItems)
      .values({ websiteId: a, menu: 'header', name: 'Stock', url: '/search/used-cars', position: 1 })
      .returning();
    await db.insert(navigationItems).values([
      { websiteId: a, menu: 'header', parentId: parent.id, name: 'Used', url: '/search/used-cars', position: 1 },
      { websiteId: a, menu: 'footer', name: 'Privacy', url: '/pages/privacy-policy', position: 1 },
      { websiteId: b, menu: 'header', name: 'Beta only', url: '/', position: 1 },
    ]);
  });

  it('finds a website by its domain and by {slug}.localhost, with its configuration defaults', async () => {
    const byDomain = await findTenantByHost('www.alpha.example');
    expect(byDomain?.slug).toBe('alpha-motors');
    expect(byDomain?.config.locale).toBe('en-NZ');
    expect(byDomain?.config.search.defaultSlug).toBe('new-used-and-demo-cars');
    expect((await findTenantByHost('beta-cars.localhost'))?.id).toBe(b);
  });

  it('answers null for a host no website owns', async () => {
    expect(await findTenantByHost('unknown.example')).toBeNull();
    expect(await findTenantByHost('nobody.localhost')).toBeNull();
    expect(await findTenantByHost("x' or '1'='1")).toBeNull();
  });

  it('builds the navigation tree of one website only', async () => {
    const nav = await getNavigation((await findTenantById(a))!);
    expect(nav.header).toHaveLength(1);
    expect(nav.header[0].dropdownItems.map((i) => i.name)).toEqual(['Used']);
    expect(nav.footer.map((i) => i.name)).toEqual(['Privacy']);
    expect(JSON.stringify(nav)).not.toContain('Beta only');
  });

  it('refuses, in the database, a navigation item whose parent belongs to another website', async () => {
    const [foreign] = await db.select().from(navigationItems).where(eq(navigationItems.websiteId, b));
    await expect(
      db.insert(navigationItems).values({ websiteId: a, menu: 'header', parentId: foreign.id, name: 'x', url: '/' }),
    ).rejects.toThrow();
  });
});
