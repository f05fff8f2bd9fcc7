import { describe, expect, it } from 'vitest';
import { websiteConfigSchema } from '@/modules/tenancy/tenancy.config';
import { resolveInternalPath } from '@/modules/tenancy/tenancy.links';
import { contentFor } from './content';
import { e164, navigationFor, searchPagesFor } from './navigation';
import { bookingsFor, specialHoursFor } from './schedule';
import { DEMO_SITES } from './sites';
import { generateStock } from './stock';

const NOW = new Date('2026-11-21T09:00:00Z');
const site = (slug: string) => DEMO_SITES.find((s) => s.slug === slug)!;

describe('demo websites', () => {
  it('are the eight demo dealers with distinct ids, themes and hero text', () => {
    expect(DEMO_SITES.map((s) => s.slug)).toEqual([
      'harbour-city-motors',
      'southern-cross-skoda',
      'outback-trucks',
      'coastline-motorcycles',
      'wanderer-rv',
      'gold-coast-used-cars',
      'kiwi-motors',
      'lone-star-auto',
    ]);
    expect(new Set(DEMO_SITES.map((s) => s.id)).size).toBe(8);
    const configs = DEMO_SITES.map((s) => websiteConfigSchema.parse(s.config));
    expect(new Set(configs.map((c) => JSON.stringify(c.theme))).size).toBe(8);
    expect(new Set(configs.map((c) => c.theme.primary)).size).toBe(8);
    expect(new Set(configs.map((c) => c.hero.heading)).size).toBe(8);
  });

  it('have configurations that pass the schema', () => {
    for (const s of DEMO_SITES) expect(websiteConfigSchema.safeParse(s.config).success, s.slug).toBe(true);
  });

  it('give every website a primary location, ids unique across sites, dealerships that own their locations', () => {
    const locationIds = DEMO_SITES.flatMap((s) => s.locations.map((l) => l.id));
    expect(new Set(locationIds).size).toBe(locationIds.length);
    for (const s of DEMO_SITES) {
      expect(s.locations.filter((l) => l.primary)).toHaveLength(1);
      for (const l of s.locations) {
        expect(s.dealerships.map((d) => d.id)).toContain(l.dealershipId);
        expect(l.openingHours).toHaveLength(7);
      }
    }
    expect(DEMO_SITES.flatMap((s) => s.locations).some((l) => !l.visible)).toBe(true);
    expect(DEMO_SITES.flatMap((s) => s.locations).some((l) => l.locationSubtypes.includes('buying'))).toBe(true);
    expect(DEMO_SITES.flatMap((s) => s.locations).some((l) => l.reviewsAverageRating > 0 && l.reviewsAverageRating < 4)).toBe(true);
  });

  it('put locations where their postcodes are', () => {
    const inBox = (lat: number, long: number, box: [number, number, number, number]) =>
      lat >= box[0] && lat <= box[1] && long >= box[2] && long <= box[3];
    for (const l of DEMO_SITES.flatMap((s) => s.locations)) {
      const box: [number, number, number, number] =
        l.country === 'NZ'
          ? [-47.5, -34, 166, 179]
          : l.country === 'US'
            ? [25.8, 36.6, -106.7, -93.5] // Texas
            : l.state === 'NSW'
              ? [-37.6, -28.1, 140.9, 153.7]
              : l.state === 'VIC'
                ? [-39.2, -33.9, 140.9, 150]
                : l.state === 'QLD'
                  ? [-29.2, -10, 137.9, 153.6]
                  : [-35.2, -13.7, 112.9, 129]; // WA
      expect(inBox(l.lat, l.long, box), `${l.name} ${l.lat},${l.long}`).toBe(true);
      if (l.country !== 'US') expect(l.postcode).toMatch(/^\d{4}$/);
      else expect(l.postcode).toMatch(/^7[5-9]\d{3}$/);
    }
  });

  it('configure the per-site behaviours the spec describes', () => {
    const config = (slug: string) => websiteConfigSchema.parse(site(slug).config);
    expect(config('harbour-city-motors')).toMatchObject({
      offersSubscription: true,
      garage: { enabled: true },
      phoneSignIn: { enabled: true },
      checkout: { enabled: true, paymentProvider: 'Stripe' },
      enableStore: true,
      carPage: { maskPhone: true },
      widgets: { chat: { provider: 'podium' } },
      search: { defaultSlug: 'new-used-and-demo-cars' },
    });
    expect(config('harbour-city-motors').widgets.chat.hiddenPaths.length).toBeGreaterThan(0);
    expect(config('southern-cross-skoda')).toMatchObject({
      usedConditionLabel: 'pre-owned',
      usePagesPath: true,
      search: { allStockPath: '/pre-owned', defaultFilters: { makes: ['ŠKODA'] } },
    });
    expect(site('southern-cross-skoda').manufacturerSlug).toBe('skoda');
    expect(config('outback-trucks').search.defaultSlug).toBe('new-used-and-demo-trucks');
    expect(config('coastline-motorcycles').vehiclePath).toBe('motorcycles');
    expect(config('wanderer-rv').vehiclePath).toBe('campers');
    expect(site('wanderer-rv').locations.find((l) => l.settings.appointmentOnly)?.name).toMatch(/Off-Road/);
    expect(site('gold-coast-used-cars').template).toBe('override');
    expect(config('gold-coast-used-cars').search).toMatchObject({
      defaultSlug: 'used-cars',
      allStockPath: '/used-cars-in-labrador',
      defaultFilters: { minPhotos: 3 },
      defaultSort: 'created_at_timestamp:desc',
    });
    expect(config('kiwi-motors')).toMatchObject({ locale: 'en-NZ', currency: 'NZD', timeZone: 'Pacific/Auckland', search: { defaultSlug: 'used-cars' } });
    expect(config('lone-star-auto')).toMatchObject({
      locale: 'en-US',
      distanceUnit: 'mi',
      currency: 'USD',
      timeZone: 'America/Chicago',
      search: { defaultSort: 'price:asc' },
      leads: { enquirySubmitLabel: 'Message Now' },
    });
  });

  it('include a website that sells online, with checkout on wherever the store is', () => {
    const configs = DEMO_SITES.map((s) => websiteConfigSchema.parse(s.config));
    const stores = configs.filter((c) => c.enableStore);
    expect(stores.length).toBeGreaterThan(0);
    for (const config of stores) expect(config.checkout).toMatchObject({ enabled: true, paymentProvider: expect.any(String) });
  });

  it('use local phone numbers', () => {
    expect(e164(site('harbour-city-motors').phone, 'AU')).toBe('+61255504100');
    expect(e164(site('kiwi-motors').phone, 'NZ')).toMatch(/^\+649\d{7}$/);
    expect(e164(site('lone-star-auto').phone, 'US')).toBe('+15125550142');
    for (const l of site('kiwi-motors').locations) expect(e164(l.phone, 'NZ')).toMatch(/^\+64/);
  });
});

describe('navigation', () => {
  const navs = DEMO_SITES.map((s) => ({ site: s, rows: navigationFor(s, generateStock(s, NOW).cars) }));

  it('has header dropdowns, and a footer with tel:, mailto:, maps and an external link', () => {
    for (const { site: s, rows } of navs) {
      const header = rows.filter((r) => r.menu === 'header');
      const footer = rows.filter((r) => r.menu === 'footer');
      const stock = header.find((r) => r.name === 'Stock' && r.parentId === null)!;
      expect(header.filter((r) => r.parentId === stock.id).length, s.slug).toBeGreaterThan(1);
      expect(header.some((r) => r.url === '/contact')).toBe(true);
      expect(footer.some((r) => r.url!.startsWith('tel:+'))).toBe(true);
      expect(footer.some((r) => r.url!.startsWith('mailto:'))).toBe(true);
      expect(footer.some((r) => r.url!.startsWith('https://www.google.com/maps/'))).toBe(true);
      expect(footer.some((r) => r.url === '/pages/privacy-policy')).toBe(true);
      for (const row of rows) if (row.parentId != null) expect(rows.find((r) => r.id === row.parentId)?.menu).toBe(row.menu);
    }
  });

  it('links the stock the site has, with the default search slug and all-stock paths', () => {
    const urls = (slug: string) => navs.find((n) => n.site.slug === slug)!.rows.map((r) => r.url);
    expect(urls('harbour-city-motors')).toEqual(expect.arrayContaining(['/search/new-cars', '/search/used-cars', '/search/demo-cars', '/search/new-used-and-demo-cars']));
    expect(urls('southern-cross-skoda')).toContain('/pre-owned');
    expect(urls('gold-coast-used-cars')).toContain('/used-cars-in-labrador');
    expect(urls('kiwi-motors')).not.toContain('/search/new-cars');
  });

  it('gives the link rules work to do: /pages/ links kept on a pages-path site, stripped elsewhere', () => {
    const skoda = navs.find((n) => n.site.slug === 'southern-cross-skoda')!;
    const skodaConfig = websiteConfigSchema.parse(skoda.site.config);
    expect(resolveInternalPath(skodaConfig, '/pages/faq')).toBe('/pages/faq');
    expect(resolveInternalPath(skodaConfig, '/pages/about-us')).toBe('/about-us');
    const goldCoast = navs.find((n) => n.site.slug === 'gold-coast-used-cars')!;
    expect(goldCoast.rows.some((r) => r.url === '/pages/about-us')).toBe(true);
    expect(resolveInternalPath(websiteConfigSchema.parse(goldCoast.site.config), '/pages/mechanical-warranty')).toBe('/mechanical-warranty');
  });
});

describe('content pages', () => {
  it('gives every website its standard pages, a FAQ, career postings and blog posts', () => {
    for (const s of DEMO_SITES) {
      const pages = contentFor(s);
      const slugs = pages.map((p) => p.slug);
      expect(new Set(slugs).size).toBe(slugs.length);
      expect(slugs).toEqual(expect.arrayContaining(['about-us', 'faq', 'mechanical-warranty', 'terms-and-conditions', 'privacy-policy', 'careers']));
      expect(pages.find((p) => p.slug === 'faq')!.kind).toBe('faq');
      expect(pages.find((p) => p.slug === 'faq')!.body!.match(/^### .+\?$/gm)!.length).toBeGreaterThanOrEqual(5);
      expect(pages.filter((p) => p.kind === 'career').length).toBeGreaterThanOrEqual(2);
      expect(pages.filter((p) => p.kind === 'blog').length).toBeGreaterThanOrEqual(2);
      expect(pages.find((p) => p.slug === 'about-us')!.body).toContain(s.name);
      for (const p of pages) expect(p.slug).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    }
    expect(contentFor(site('gold-coast-used-cars')).some((p) => p.slug === 'selling-your-car-with-titan')).toBe(true);
  });

  it('spells the US way on the US site only', () => {
    const us = contentFor(site('lone-star-auto')).map((p) => p.body).join('\n');
    expect(us).not.toMatch(/\b(colour|centre|licence|tyres|organise|favourite)\b/i);
    const au = contentFor(site('outback-trucks')).map((p) => p.body).join('\n');
    expect(au).toMatch(/licence/);
  });
});

describe('search pages', () => {
  it('include the default slug, car-type slugs, the all-stock path and make/model landings', () => {
    const slugs = (slug: string) => searchPagesFor(site(slug), generateStock(site(slug), NOW).cars).map((p) => p.slug);
    expect(slugs('harbour-city-motors')).toEqual(expect.arrayContaining(['new-used-and-demo-cars', 'new-cars', 'used-cars', 'demo-cars']));
    expect(slugs('southern-cross-skoda')).toContain('pre-owned');
    expect(slugs('gold-coast-used-cars')).toEqual(expect.arrayContaining(['used-cars', 'used-cars-in-labrador']));
    expect(slugs('outback-trucks')).toContain('new-used-and-demo-trucks');
    for (const s of DEMO_SITES) {
      const pages = searchPagesFor(s, generateStock(s, NOW).cars);
      expect(pages.some((p) => /^(used|new)-cars\/[a-z0-9-]+\/[a-z0-9-]+$/.test(p.slug)), s.slug).toBe(true);
      expect(new Set(pages.map((p) => p.slug)).size).toBe(pages.length);
    }
  });
});

describe('holiday hours and bookings', () => {
  it('publish upcoming holidays per location, closed at the appointment-only site', () => {
    const rows = specialHoursFor(site('wanderer-rv'), NOW);
    const offRoad = site('wanderer-rv').locations.find((l) => l.settings.appointmentOnly)!;
    const christmas = rows.filter((r) => r.date === '2026-12-25');
    expect(christmas).toHaveLength(2);
    expect(christmas.every((r) => r.status === 'Closed')).toBe(true);
    const boxing = rows.filter((r) => r.date === '2026-12-26');
    expect(boxing.find((r) => r.locationId === offRoad.id)!.status).toBe('Closed');
    expect(boxing.find((r) => r.locationId !== offRoad.id)).toMatchObject({ status: 'Open', startHour: '10:00', endHour: '16:00' });
    expect(rows.every((r) => r.date >= '2026-11-21')).toBe(true);
    const us = specialHoursFor(site('lone-star-auto'), NOW);
    expect(us.find((r) => r.name === 'Thanksgiving Day')).toMatchObject({ date: '2026-11-26', status: 'Closed' });
    const nz = specialHoursFor(site('kiwi-motors'), NOW);
    expect(nz.some((r) => r.name === 'Waitangi Day')).toBe(true);
  });

  it('book service slots on the next open days, inside opening hours', () => {
    const rows = bookingsFor(site('harbour-city-motors'), NOW);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const row of rows) {
      expect(row.kind).toBe('service');
      expect(row.startsAt.getTime()).toBeGreaterThan(NOW.getTime());
      expect(row.startsAt.getTime() - NOW.getTime()).toBeLessThan(10 * 86_400_000);
    }
    expect(bookingsFor(site('wanderer-rv'), NOW).every((b) => b.kind === 'appointment')).toBe(true);
  });
});
