import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { listDealerLicences } from '@/modules/locations/locations.queries';
import { resolveSearchListing } from '@/modules/stock/search/search.listing';
import { MAX_KEYS_PER_WEBSITE, memoWhileWebsiteUnchanged } from '@/modules/tenancy/tenancy.memo';
import { findTenantByHost, findTenantById, getNavigation } from '@/modules/tenancy/tenancy.queries';
import { dealerships, navigationItems, searchPages, websiteDomains, websites } from '@/modules/tenancy/tenancy.schema';
import type { Tenant } from '@/modules/tenancy/tenancy.types';

/** Website data kept in memory while the website generation holds (tenancy.memo.ts). */
/**
 * Outside a render the website generation is the process's, told by the database's notifications
 * (decision 055): a change shows within its staleness bound, 1 s (at once on PGlite in process).
 */
const soon = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 1_000, interval: 20 });

describe('memoWhileWebsiteUnchanged', () => {
  let db: Db;
  let first: Tenant;
  let second: Tenant;

  async function website(slug: string): Promise<Tenant> {
    const [site] = await db.insert(websites).values({ slug, name: `${slug} website`, config: {} }).returning();
    await db.insert(dealerships).values({ websiteId: site.id, slug: `${slug}-dealer`, name: `${slug} Dealer`, dealerLicenseNumber: 'MD 1' });
    await db.insert(navigationItems).values({ websiteId: site.id, menu: 'header', position: 1, name: 'Stock', url: '/search/used-cars' });
    return (await findTenantById(site.id))!;
  }

  /** A load that counts its calls. */
  function counted<T>(value: () => T) {
    const calls = { count: 0 };
    return { calls, load: async () => (calls.count++, value()) };
  }

  beforeAll(async () => {
    db = (await useTestDatabase()).db;
    first = await website('memo-one');
    second = await website('memo-two');
  });

  it('loads once while the website is unchanged, and again after any change its generation covers', async () => {
    const { calls, load } = counted(() => 'value');
    expect(await memoWhileWebsiteUnchanged(first, 'k', load)).toBe('value');
    expect(await memoWhileWebsiteUnchanged(first, 'k', load)).toBe('value');
    expect(calls.count).toBe(1);
    await db.insert(navigationItems).values({ websiteId: first.id, menu: 'footer', position: 1, name: 'About', url: '/about-us' });
    await soon(async () => {
      await memoWhileWebsiteUnchanged(first, 'k', load);
      expect(calls.count).toBe(2);
    });
  });

  it('keeps websites apart: the same key of another website is its own value, and its changes leave the first alone', async () => {
    const one = counted(() => 'one');
    const two = counted(() => 'two');
    expect(await memoWhileWebsiteUnchanged(first, 'apart', one.load)).toBe('one');
    expect(await memoWhileWebsiteUnchanged(second, 'apart', two.load)).toBe('two');
    await db.update(dealerships).set({ name: 'Renamed' }).where(eq(dealerships.websiteId, second.id));
    await soon(async () => {
      await memoWhileWebsiteUnchanged(second, 'apart', two.load);
      expect(two.calls.count).toBe(2);
    });
    expect(await memoWhileWebsiteUnchanged(first, 'apart', one.load)).toBe('one');
    expect(one.calls.count).toBe(1);
  });

  it('shares one load between concurrent requests and does not keep a failure', async () => {
    const slow = counted(() => 'shared');
    const [a, b] = await Promise.all([memoWhileWebsiteUnchanged(first, 'together', slow.load), memoWhileWebsiteUnchanged(first, 'together', slow.load)]);
    expect([a, b, slow.calls.count]).toEqual(['shared', 'shared', 1]);

    let fail = true;
    const flaky = counted(() => {
      if (fail) throw new Error('database went away');
      return 'recovered';
    });
    await expect(memoWhileWebsiteUnchanged(first, 'flaky', flaky.load)).rejects.toThrow('database went away');
    fail = false;
    expect(await memoWhileWebsiteUnchanged(first, 'flaky', flaky.load)).toBe('recovered');
  });

  it('runs a query builder once however often its result is awaited', async () => {
    let queries = 0;
    const thenable = { then: (resolve: (value: string) => void) => (queries++, resolve('rows')) };
    await memoWhileWebsiteUnchanged(first, 'thenable', () => thenable as PromiseLike<string>);
    await memoWhileWebsiteUnchanged(first, 'thenable', () => thenable as PromiseLike<string>);
    expect(queries).toBe(1);
  });

  it(`holds at most ${MAX_KEYS_PER_WEBSITE} keys per website: a flood of new keys (crawled 404 paths) starts it afresh`, async () => {
    const kept = counted(() => 'kept');
    await memoWhileWebsiteUnchanged(first, 'kept', kept.load);
    for (let i = 0; i < MAX_KEYS_PER_WEBSITE; i++) await memoWhileWebsiteUnchanged(first, `flood-${i}`, async () => i);
    await memoWhileWebsiteUnchanged(first, 'kept', kept.load);
    expect(kept.calls.count).toBe(2);
  });

  it('navigation, dealer licences and search pages show a change within the staleness bound (1 s, decision 055; at once on PGlite in process)', async () => {
    const before = await getNavigation(first);
    await db.update(navigationItems).set({ name: 'Our stock' }).where(eq(navigationItems.websiteId, first.id));
    expect(before.header.map((item) => item.name)).toEqual(['Stock']);
    await soon(async () => expect((await getNavigation(first)).header.map((item) => item.name)).toEqual(['Our stock']));

    expect((await listDealerLicences(first)).map((licence) => licence.number)).toEqual(['MD 1']);
    await db.update(dealerships).set({ dealerLicenseNumber: 'MD 2' }).where(eq(dealerships.websiteId, first.id));
    await soon(async () => expect((await listDealerLicences(first)).map((licence) => licence.number)).toEqual(['MD 2']));

    expect(await resolveSearchListing(first, ['bargains'])).toBeNull();
    await db.insert(searchPages).values({ websiteId: first.id, slug: 'bargains', title: 'Bargains', heading: 'Bargain cars', filters: {} });
    await soon(async () => expect((await resolveSearchListing(first, ['bargains']))?.heading).toBe('Bargain cars'));
    await db.update(searchPages).set({ heading: 'Cheap cars' }).where(eq(searchPages.websiteId, first.id));
    await soon(async () => expect((await resolveSearchListing(first, ['Bargains']))?.heading).toBe('Cheap cars'));
  });

  it('a website found by its host is read again only when its generation moves, and shows every change to its row, domains and manufacturer', async () => {
    const host = 'memo-one.example.com.au';
    await db.insert(websiteDomains).values({ websiteId: first.id, host });
    const before = await findTenantByHost(host);
    expect(before?.name).toBe('memo-one website');
    // Unchanged: the same object, its settings not parsed again.
    expect(await findTenantByHost(host)).toBe(before);
    // The stock counters are not what its pages show: still the same.
    await db.update(websites).set({ stockVersion: sql`${websites.stockVersion} + 1` }).where(eq(websites.id, first.id));
    expect(await findTenantByHost(host)).toBe(before);

    await db.update(websites).set({ name: 'Renamed Motors', config: { locale: 'en-NZ' } }).where(eq(websites.id, first.id));
    const renamed = await findTenantByHost(host);
    expect([renamed?.name, renamed?.config.locale]).toEqual(['Renamed Motors', 'en-NZ']);

    await db.update(websiteDomains).set({ websiteId: second.id }).where(eq(websiteDomains.host, host));
    expect((await findTenantByHost(host))?.id).toBe(second.id);
    await db.delete(websiteDomains).where(eq(websiteDomains.host, host));
    expect(await findTenantByHost(host)).toBeNull();
  });
});
