import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, not } from 'drizzle-orm';
import type { Db } from '@/db';
import { seedDemoData } from '@/demo';
import { slugify } from '@/lib/slug';
import { contentPagePath } from '@/modules/content/content.routing';
import { contentPages } from '@/modules/content/content.schema';
import { robotsResponse, sitemapPartResponse, sitemapResponse } from '@/modules/content/sitemap.route';
import { locations } from '@/modules/locations/locations.schema';
import { cars } from '@/modules/stock/stock.schema';
import { visibleCarsWhere } from '@/modules/stock/stock.queries';
import { carPath, searchPath, siteOrigin } from '@/modules/tenancy/tenancy.paths';
import { findTenantByHost } from '@/modules/tenancy/tenancy.queries';
import { dealerships, websites } from '@/modules/tenancy/tenancy.schema';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { validateSitemap } from '../support/sitemap-schema';
import { useTestDatabase } from '../support/database';

const host = (slug: string) => `${slug}.localhost`;

async function fetchSitemap(response: Promise<Response>) {
  const res = await response;
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  const xml = await res.text();
  return { xml, ...validateSitemap(xml) };
}

describe('sitemap.xml and robots.txt of the demo websites', () => {
  let db: Db;
  let tenants: Tenant[];
  const now = new Date();

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    await seedDemoData(db, { mediaDir: null, now });
    const slugs = (await db.select({ slug: websites.slug }).from(websites).orderBy(asc(websites.id))).map((w) => w.slug);
    tenants = (await Promise.all(slugs.map((slug) => findTenantByHost(host(slug))))).filter((t): t is Tenant => t !== null);
    expect(tenants).toHaveLength(8);
  }, 240_000);

  it('every demo website’s sitemap validates against the protocol and lists only its own URLs', async () => {
    const sitemaps = new Map<number, Set<string>>();
    for (const tenant of tenants) {
      const { kind, locs, errors } = await fetchSitemap(sitemapResponse(host(tenant.slug)));
      expect(errors, tenant.slug).toEqual([]);
      expect(kind).toBe('urlset');
      const origin = siteOrigin(tenant, host(tenant.slug)).origin;
      expect(origin).toBe(`https://${tenant.slug}.example`);
      for (const loc of locs) expect(new URL(loc).origin, loc).toBe(origin);
      expect(new Set(locs).size, `${tenant.slug}: duplicate URLs`).toBe(locs.length);
      sitemaps.set(tenant.id, new Set(locs.map((loc) => new URL(loc).pathname)));
    }

    for (const tenant of tenants) {
      const paths = sitemaps.get(tenant.id)!;
      // Home, the all-stock search, /contact and the blog.
      for (const path of ['/', searchPath(tenant), '/contact', '/blog']) expect(paths, `${tenant.slug} ${path}`).toContain(path);

      // Exactly the cars the car page serves: listed ones, never hidden or long-sold ones.
      const visible = await db.select({ slug: cars.slug }).from(cars).where(visibleCarsWhere(tenant, now));
      const listedCars = [...paths].filter((p) => p.startsWith(`/${tenant.config.vehiclePath}/`));
      expect(listedCars.sort()).toEqual(visible.map((c) => carPath(tenant, c.slug)).sort());
      const hidden = await db
        .select({ slug: cars.slug })
        .from(cars)
        .where(and(eq(cars.websiteId, tenant.id), not(visibleCarsWhere(tenant, now))));
      for (const car of hidden) expect(paths).not.toContain(carPath(tenant, car.slug));

      // Every content page at the path it answers on (the /pages rule of SPEC §2).
      const content = await db.select().from(contentPages).where(eq(contentPages.websiteId, tenant.id));
      expect(content.length).toBeGreaterThan(5);
      for (const page of content) expect(paths).toContain(contentPagePath(tenant.config, page));

      // Visible locations only, and the contact page of each dealership that has one.
      const sites = await db
        .select({ slug: locations.slug, visible: locations.visible, dealership: dealerships.slug })
        .from(locations)
        .innerJoin(dealerships, eq(dealerships.id, locations.dealershipId))
        .where(eq(locations.websiteId, tenant.id));
      for (const location of sites) {
        if (location.visible) {
          expect(paths).toContain(`/our-locations/${location.slug}`);
          expect(paths).toContain(`/contact-us/${location.dealership}`);
        } else {
          expect(paths).not.toContain(`/our-locations/${location.slug}`);
        }
      }

      // Make and model landing pages of its own stock.
      const [car] = await db.select({ make: cars.make, model: cars.model }).from(cars).where(visibleCarsWhere(tenant, now)).limit(1);
      expect(paths).toContain(`${searchPath(tenant)}/${slugify(car.make)}`);
      expect(paths).toContain(`${searchPath(tenant)}/${slugify(car.make)}/${slugify(car.model)}`);

      // Nothing of another website: none of its cars (slugs are unique per website only).
      for (const other of tenants) {
        if (other.id === tenant.id) continue;
        const theirs = await db.select({ slug: cars.slug }).from(cars).where(eq(cars.websiteId, other.id));
        const ours = new Set(visible.map((c) => c.slug));
        for (const { slug } of theirs) if (!ours.has(slug)) expect(paths).not.toContain(carPath(tenant, slug));
      }
    }
  });

  it('uses each website’s own paths: /pages/faq where the site uses a pages path, /faq elsewhere', async () => {
    const skoda = tenants.find((t) => t.config.usePagesPath)!;
    const plain = tenants.find((t) => !t.config.usePagesPath)!;
    const skodaPaths = (await fetchSitemap(sitemapResponse(host(skoda.slug)))).locs.map((l) => new URL(l).pathname);
    const plainPaths = (await fetchSitemap(sitemapResponse(host(plain.slug)))).locs.map((l) => new URL(l).pathname);
    expect(skodaPaths).toEqual(expect.arrayContaining(['/pages/faq', '/pages/mechanical-warranty', '/about-us', '/privacy-policy', '/terms-and-conditions', '/careers']));
    expect(skodaPaths).not.toContain('/faq');
    expect(skodaPaths).not.toContain('/pages/careers');
    expect(plainPaths).toEqual(expect.arrayContaining(['/faq', '/mechanical-warranty', '/about-us', '/careers']));
    expect(plainPaths.some((p) => p.startsWith('/pages/'))).toBe(false);
    // A top-level all-stock path is listed (southern-cross-skoda: /pre-owned).
    expect(skodaPaths).toContain(skoda.config.search.allStockPath);
  });

  it('past the limit, sitemap.xml is an index of parts that together list the same URLs, each within the limit', async () => {
    const tenant = tenants[0];
    const single = (await fetchSitemap(sitemapResponse(host(tenant.slug)))).locs;
    const maxUrls = 7;
    const index = await fetchSitemap(sitemapResponse(host(tenant.slug), { maxUrls }));
    expect(index.errors).toEqual([]);
    expect(index.kind).toBe('sitemapindex');
    const origin = `https://${tenant.slug}.example`;
    const partNames = index.locs.map((loc) => {
      expect(loc.startsWith(`${origin}/sitemaps/`)).toBe(true);
      return loc.slice(`${origin}/sitemaps/`.length);
    });
    expect(partNames[0]).toBe('pages-1.xml');
    expect(partNames.some((name) => name.startsWith('cars-'))).toBe(true);

    const union: string[] = [];
    for (const name of partNames) {
      const part = await fetchSitemap(sitemapPartResponse(host(tenant.slug), name, { maxUrls }));
      expect(part.errors, name).toEqual([]);
      expect(part.kind).toBe('urlset');
      expect(part.locs.length).toBeGreaterThan(0);
      expect(part.locs.length).toBeLessThanOrEqual(maxUrls);
      union.push(...part.locs);
    }
    expect(new Set(union).size).toBe(union.length);
    expect(union.sort()).toEqual([...single].sort());

    const lastCars = partNames.filter((n) => n.startsWith('cars-')).length;
    for (const missing of [`cars-${lastCars + 1}.xml`, 'cars-0.xml', 'cars-1.xm', '../sitemap.xml', 'pages-01.xml', 'cars-1.xml%00']) {
      expect((await sitemapPartResponse(host(tenant.slug), missing, { maxUrls })).status, missing).toBe(404);
    }
    // While everything fits in one file there are no parts.
    expect((await sitemapPartResponse(host(tenant.slug), 'cars-1.xml')).status).toBe(404);
  });

  it('a part of another website’s index answers with this website’s URLs only', async () => {
    const [a, b] = tenants;
    const part = await fetchSitemap(sitemapPartResponse(host(b.slug), 'cars-1.xml', { maxUrls: 5 }));
    expect(part.locs.every((loc) => loc.startsWith(`https://${b.slug}.example/`))).toBe(true);
    expect(part.locs.some((loc) => loc.includes(a.slug))).toBe(false);
  });

  it('an unknown host, or a Host header that is not a host name (null), has no sitemap and no robots.txt', async () => {
    for (const unknown of ['nobody-here.example', null]) {
      expect((await sitemapResponse(unknown)).status).toBe(404);
      expect((await sitemapPartResponse(unknown, 'cars-1.xml', { maxUrls: 1 })).status).toBe(404);
      expect((await robotsResponse(unknown)).status).toBe(404);
    }
  });

  it('robots.txt names the website’s own sitemap and keeps crawlers out of the API and private pages', async () => {
    for (const tenant of tenants) {
      const res = await robotsResponse(host(tenant.slug));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      const text = await res.text();
      expect(text).toContain('User-agent: *');
      expect(text).toContain(`Sitemap: https://${tenant.slug}.example/sitemap.xml`);
      expect(text).toContain('Disallow: /api/');
      expect(text).toContain(`Disallow: ${tenant.config.garage.path}`);
      for (const other of tenants) if (other.id !== tenant.id) expect(text).not.toContain(other.slug);
    }
  });
});
