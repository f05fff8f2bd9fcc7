import 'server-only';
import type { Db } from '@/db';
import { dealerships, manufacturers, navigationItems, searchPages, websites } from '../tenancy/tenancy.schema';
import { locations, specialHours } from '../locations/locations.schema';
import type { OpeningHoursEntry } from '../locations/locations.types';
import { findTenantById } from '../tenancy/tenancy.queries';
import type { Tenant } from '../tenancy/tenancy.types';
import { upsertCar, carInputSchema } from '@/modules/stock/server';
import { type CarInputRaw } from '../stock/stock.validation';
import { createApiKey } from '@/lib/http';

/**
 * Test data for the Dashboard API's tests (never imported by the application): two websites, each
 * with a dealership, a sales and a service location, a few cars, search pages, navigation and
 * special hours, and an API key per dealership.
 */

export type Key = { keyId: string; secret: string };

export type SiteFixture = {
  tenant: Tenant;
  websiteId: number;
  dealershipId: number;
  salesLocationId: number;
  serviceLocationId: number;
  key: Key;
};

export type DashboardWorld = { a: SiteFixture; b: SiteFixture; toyotaId: number };

export const WEEKDAY_HOURS: OpeningHoursEntry[] = [
  { weekday: 0, status: 'Closed', open: null, close: null },
  ...[1, 2, 3, 4, 5].map((weekday) => ({ weekday, status: 'Open' as const, open: '09:00', close: '17:00' })),
  { weekday: 6, status: 'Open', open: '09:00', close: '12:00' },
];

export function carBody(overrides: Partial<CarInputRaw> = {}): CarInputRaw {
  return { make: 'Toyota', model: 'Corolla', badge: 'Ascent', year: 2021, km: 42000, price: 27990, car_type: 'used', ...overrides };
}

async function seedSite(db: Db, slug: string, timeZone: string, cars: [string, Partial<CarInputRaw>][]): Promise<SiteFixture> {
  const [website] = await db
    .insert(websites)
    .values({ slug, name: `${slug} website`, config: { timeZone } })
    .returning({ id: websites.id });
  const [dealership] = await db
    .insert(dealerships)
    .values({ websiteId: website.id, slug: `${slug}-dealer`, name: `${slug} dealer` })
    .returning({ id: dealerships.id });
  const [sales, service] = await db
    .insert(locations)
    .values([
      {
        websiteId: website.id,
        dealershipId: dealership.id,
        name: `${slug} Sales`,
        slug: `${slug}-sales`,
        locationType: '',
        primary: true,
        phone: '02 9999 0000',
        timeZone,
        openingHours: WEEKDAY_HOURS,
      },
      {
        websiteId: website.id,
        dealershipId: dealership.id,
        name: `${slug} Service`,
        slug: `${slug}-service`,
        locationType: 'service',
        position: 1,
        timeZone,
        openingHours: WEEKDAY_HOURS,
      },
    ])
    .returning({ id: locations.id });
  await db.insert(locations).values({
    websiteId: website.id,
    dealershipId: dealership.id,
    name: `${slug} Hidden yard`,
    slug: `${slug}-hidden`,
    locationType: 'sales',
    visible: false,
    timeZone,
    openingHours: WEEKDAY_HOURS,
  });
  await db.insert(searchPages).values([
    { websiteId: website.id, slug: 'used-cars', title: `${slug} used cars`, heading: 'Used cars', filters: { car_type: ['used'] } },
    { websiteId: website.id, slug: 'new-used-and-demo-cars', title: `${slug} all stock`, heading: 'All stock' },
  ]);
  await db.insert(navigationItems).values([
    { websiteId: website.id, menu: 'header', name: `${slug} stock`, url: '/search/used-cars', position: 1 },
    { websiteId: website.id, menu: 'footer', name: `${slug} privacy`, url: '/privacy-policy', position: 1 },
  ]);
  await db.insert(specialHours).values([
    { websiteId: website.id, locationId: sales.id, date: '2026-12-25', status: 'Closed', name: 'Christmas Day' },
    { websiteId: website.id, locationId: sales.id, date: '2026-01-26', status: 'Closed', name: 'Australia Day (past)' },
    { websiteId: website.id, locationId: service.id, date: '2026-12-24', status: 'Open', startHour: '09:00', endHour: '12:00', name: 'Christmas Eve' },
  ]);
  const tenant = (await findTenantById(website.id))!;
  for (const [carSlug, overrides] of cars) {
    await upsertCar(tenant, dealership.id, carSlug, carInputSchema.parse(carBody({ location_id: sales.id, ...overrides })));
  }
  const key = await createApiKey(`${slug}-dealer`);
  return {
    tenant: (await findTenantById(website.id))!,
    websiteId: website.id,
    dealershipId: dealership.id,
    salesLocationId: sales.id,
    serviceLocationId: service.id,
    key: { keyId: key!.keyId, secret: key!.secret },
  };
}

/** Two websites, A (Sydney) and B (Perth); they share the car slug 'shared-slug'. */
export async function seedDashboardWorld(db: Db): Promise<DashboardWorld> {
  const [toyota] = await db
    .insert(manufacturers)
    .values([
      { slug: 'toyota', name: 'Toyota', displayName: 'Toyota' },
      { slug: 'skoda', name: 'Skoda', displayName: 'Škoda' },
    ])
    .returning({ id: manufacturers.id });
  const a = await seedSite(db, 'alpha-motors', 'Australia/Sydney', [
    ['a-corolla-1', { model: 'Corolla' }],
    ['a-camry-1', { model: 'Camry', price: 35990 }],
    ['a-camry-2', { model: 'Camry', price: 36990 }],
    ['a-octavia', { make: 'Škoda', model: 'Octavia' }],
    ['shared-slug', { name: 'Alpha shared car' }],
  ]);
  const b = await seedSite(db, 'beta-cars', 'Australia/Perth', [
    ['b-hilux-1', { model: 'HiLux', price: 55990 }],
    ['shared-slug', { name: 'Beta shared car' }],
  ]);
  return { a, b, toyotaId: toyota.id };
}

export function basicAuth(key: Key): string {
  return `Basic ${Buffer.from(`${key.keyId}:${key.secret}`).toString('base64')}`;
}

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

/** Calls a route handler the way Next does: a Request and a params promise. */
export async function callRoute<P>(
  handler: Handler<P>,
  params: P,
  options: { method?: string; key?: Key | null; authorization?: string; body?: unknown; rawBody?: BodyInit; headers?: Record<string, string>; query?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (options.key) headers.authorization = basicAuth(options.key);
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  // A client of the API declares JSON (the route refuses anything else with 415).
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const request = new Request(`http://dealer.example/dashboard-api-test${options.query ?? ''}`, {
    method: options.method ?? 'GET',
    headers,
    body,
  });
  return handler(request, { params: Promise.resolve(params) });
}
