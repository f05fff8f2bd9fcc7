import 'server-only';
import { withDemoReviews } from './reviews';
import { and, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { localMediaStore, mediaUrl } from '@/lib/media';
import { contentPages } from '@/modules/content/content.schema';
import { bookings, locations, specialHours } from '@/modules/locations/locations.schema';
import { carImages, carPaymentProcessors, carPriceChanges, cars } from '@/modules/stock/stock.schema';
import { websiteConfigSchema } from '@/modules/tenancy/tenancy.config';
import { webVitals } from '@/modules/widgets/widgets.schema';
import { dealerships, manufacturers, navigationItems, searchPages, websiteDomains, websites } from '@/modules/tenancy/tenancy.schema';
import { contentFor } from './content';
import { logoSvg, renderPhotos } from './images';
import { navigationFor, searchPagesFor } from './navigation';
import { simplePdf } from './pdf';
import { bookingsFor, specialHoursFor } from './schedule';
import { DEMO_SITES, DEMO_SLUGS, placeUrl, type SiteSeed } from './sites';
import { demoPriceChanges, generateStock, slugify, type GeneratedStock, type PhotoSpec } from './stock';
import { vitalsFor } from './vitals';
import { demoAlerts } from './alerts';
import { alertProgress, alertSubscriptions, savedSearches } from '@/modules/alerts/alerts.schema';
import { customers, favourites } from '@/modules/identity/identity.schema';

export { DEMO_SITES, DEMO_SLUGS } from './sites';

export type SeedOptions = {
  /** Where image files go; null writes none (the rows and URLs are the same). */
  mediaDir: string | null;
  log?: (line: string) => void;
  /** The moment recent dates are relative to (sold dates, arrivals, holidays). Default: now. */
  now?: Date;
  /** Photos rendered at once (sharp works on the libuv pool). Default 4. */
  concurrency?: number;
};

export type SeedSummary = {
  websites: number;
  cars: number;
  carsByStatus: { in_stock: number; coming_soon: number; sold: number };
  carsByWebsite: Record<string, number>;
  imageRows: number;
  /** Distinct photo files the rows point at. */
  photoFiles: number;
  imagesWritten: number;
  imagesSkipped: number;
  seconds: number;
};

/** Whether any website exists (the start script seeds only an empty database). */
export async function databaseHasWebsites(db: Db): Promise<boolean> {
  const rows = await db.select({ id: websites.id }).from(websites).limit(1);
  return rows.length > 0;
}

/** Makes the seed uses, with the names they are shown under (SPEC §3: skoda → Škoda, chery → Chery). */
const MANUFACTURER_NAMES: Record<string, string> = {
  skoda: 'Škoda',
  chery: 'Chery',
  mg: 'MG',
  byd: 'BYD',
  gwm: 'GWM',
  bmw: 'BMW',
  ktm: 'KTM',
  gmc: 'GMC',
  ud: 'UD Trucks',
  mdc: 'MDC',
  'zone-rv': 'Zone RV',
};

export function manufacturerSlug(make: string): string {
  return slugify(make);
}

function manufacturerDisplayName(make: string): string {
  const slug = manufacturerSlug(make);
  return MANUFACTURER_NAMES[slug] ?? make;
}

type SitePlan = {
  site: SiteSeed;
  stock: GeneratedStock;
};

const INSERT_CHUNK = 400;

async function insertChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>, size = INSERT_CHUNK): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Tables whose demo rows carry explicit ids: their sequences must move past them. */
const EXPLICIT_ID_TABLES = ['websites', 'dealerships', 'locations', 'cars', 'navigation_items'] as const;

async function resetSequences(tx: Tx): Promise<void> {
  for (const table of EXPLICIT_ID_TABLES) {
    await tx.execute(
      sql.raw(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM ${table}), false)`),
    );
  }
}

/** Refuses to run when rows of other (non-demo) websites hold the ids the demo data uses. */
async function assertDemoIdsFree(tx: Tx, plans: SitePlan[]): Promise<void> {
  const demoWebsiteIds = plans.map((p) => p.site.id);
  const checks: Array<[string, number]> = [];
  const taken = async (label: string, query: Promise<Array<{ id: number }>>) => {
    const rows = await query;
    if (rows.length > 0) checks.push([label, rows[0].id]);
  };
  await taken(
    'websites',
    tx
      .select({ id: websites.id })
      .from(websites)
      .where(and(inArray(websites.id, demoWebsiteIds), notInArray(websites.slug, [...DEMO_SLUGS])))
      .limit(1),
  );
  const dealershipIds = plans.flatMap((p) => p.site.dealerships.map((d) => d.id));
  await taken(
    'dealerships',
    tx.select({ id: dealerships.id }).from(dealerships).where(and(inArray(dealerships.id, dealershipIds), notInArray(dealerships.websiteId, demoWebsiteIds))).limit(1),
  );
  const locationIds = plans.flatMap((p) => p.site.locations.map((l) => l.id));
  await taken(
    'locations',
    tx.select({ id: locations.id }).from(locations).where(and(inArray(locations.id, locationIds), notInArray(locations.websiteId, demoWebsiteIds))).limit(1),
  );
  const carIds = plans.flatMap((p) => p.stock.cars.map((c) => c.id));
  await taken(
    'cars',
    tx.select({ id: cars.id }).from(cars).where(and(inArray(cars.id, carIds), notInArray(cars.websiteId, demoWebsiteIds))).limit(1),
  );
  const navigationIds = plans.flatMap((p) => navigationFor(p.site, p.stock.cars).map((n) => n.id));
  await taken(
    'navigation_items',
    tx
      .select({ id: navigationItems.id })
      .from(navigationItems)
      .where(and(inArray(navigationItems.id, navigationIds), notInArray(navigationItems.websiteId, demoWebsiteIds)))
      .limit(1),
  );
  if (checks.length > 0) {
    throw new Error(
      `Cannot seed the demo dealers: ids they use are taken by other websites' rows (${checks.map(([t, id]) => `${t} ${id}`).join(', ')}). Seed an empty database instead.`,
    );
  }
}

async function writeDatabase(db: Db, plans: SitePlan[], now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await assertDemoIdsFree(tx, plans);

    // Manufacturers are shared by all websites: upsert, never delete.
    const makes = new Map<string, string>();
    for (const { site, stock } of plans) {
      for (const car of stock.cars) makes.set(manufacturerSlug(car.make), car.make);
      for (const d of site.dealerships) if (d.manufacturerSlug) makes.set(d.manufacturerSlug, makes.get(d.manufacturerSlug) ?? d.manufacturerSlug);
      if (site.manufacturerSlug) makes.set(site.manufacturerSlug, makes.get(site.manufacturerSlug) ?? site.manufacturerSlug);
    }
    const manufacturerRows = [...makes.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([slug, make]) => {
        // name as the stock writes it (ŠKODA), displayName as it is shown (Škoda).
        return { slug, name: make, displayName: manufacturerDisplayName(make) };
      });
    const upserted = await tx
      .insert(manufacturers)
      .values(manufacturerRows)
      .onConflictDoUpdate({
        target: manufacturers.slug,
        set: { name: sql`excluded.name`, displayName: sql`excluded.display_name` },
      })
      .returning({ id: manufacturers.id, slug: manufacturers.slug });
    const manufacturerId = new Map(upserted.map((m) => [m.slug, m.id]));

    // Replace the demo websites: cascades remove everything that hangs off them.
    await tx.delete(websites).where(inArray(websites.slug, [...DEMO_SLUGS]));

    await tx.insert(websites).values(
      plans.map(({ site }) => ({
        id: site.id,
        slug: site.slug,
        name: site.name,
        template: site.template,
        phone: site.phone,
        logoUrl: mediaUrl(`logos/${site.slug}.svg`),
        url: site.url,
        city: site.city,
        state: site.state,
        overrideCity: site.overrideCity,
        dealershipGroup: site.dealershipGroup,
        manufacturerId: site.manufacturerSlug ? manufacturerId.get(site.manufacturerSlug)! : null,
        config: withDemoReviews(site, now),
        secrets: site.secrets ?? {},
        stockVersion: 1,
        createdAt: now,
        updatedAt: now,
      })),
    );
    await tx.insert(websiteDomains).values(plans.map(({ site }) => ({ websiteId: site.id, host: `${site.slug}.example`, primary: true })));
    await tx.insert(dealerships).values(
      plans.flatMap(({ site }) =>
        site.dealerships.map((d) => ({
          id: d.id,
          websiteId: site.id,
          slug: d.slug,
          name: d.name,
          group: d.group,
          manufacturerId: d.manufacturerSlug ? manufacturerId.get(d.manufacturerSlug)! : null,
          phone: d.phone,
          email: d.email,
          whatsappNumber: d.whatsappNumber,
          dealerLicenseNumber: d.dealerLicenseNumber,
          stripePublishableKey: d.stripePublishableKey,
          createdAt: now,
        })),
      ),
    );
    await tx.insert(locations).values(
      plans.flatMap(({ site }) =>
        site.locations.map((l, position) => ({
          id: l.id,
          websiteId: site.id,
          dealershipId: l.dealershipId,
          name: l.name,
          slug: l.slug,
          position,
          primary: l.primary,
          locationType: l.locationType,
          locationSubtypes: l.locationSubtypes,
          manufacturers: l.manufacturers,
          visible: l.visible,
          dealerLicenseNumber: l.dealerLicenseNumber,
          street: l.street,
          city: l.city,
          state: l.state,
          postcode: l.postcode,
          country: l.country,
          lat: l.lat,
          long: l.long,
          placeId: null,
          placeUrl: placeUrl(l),
          island: l.island,
          timeZone: l.timeZone,
          phone: l.phone,
          landlinePhone: l.landlinePhone,
          mobile: l.mobile,
          leadEmail: l.leadEmail,
          social: l.social,
          openingHours: l.openingHours,
          settings: l.settings,
          reviewsCount: l.reviewsCount,
          reviewsAverageRating: l.reviewsAverageRating,
          createdAt: now,
        })),
      ),
    );
    await tx.insert(specialHours).values(plans.flatMap(({ site }) => specialHoursFor(site, now)));
    const bookingRows = plans.flatMap(({ site }) => bookingsFor(site, now));
    if (bookingRows.length > 0) await tx.insert(bookings).values(bookingRows);

    await tx.insert(navigationItems).values(plans.flatMap(({ site, stock }) => navigationFor(site, stock.cars)));
    await tx.insert(searchPages).values(plans.flatMap(({ site, stock }) => searchPagesFor(site, stock.cars)));
    await tx.insert(contentPages).values(plans.flatMap(({ site }) => contentFor(site)));

    const allCars = plans.flatMap((p) => p.stock.cars);
    // The price history first: the demo visitor's alert below then lowers a price the history ends at.
    const priceHistory = demoPriceChanges(allCars, now);
    // A demo visitor's saved cars and search with alerts on (issue 35); sets a price and an arrival among the cars.
    const alerts = plans.map(({ site }) => demoAlerts(site, allCars, now)).filter((a) => a !== null);
    await insertChunks(allCars, (chunk) => tx.insert(cars).values(chunk), 250);
    const allImages = plans.flatMap((p) => p.stock.images);
    await insertChunks(allImages, (chunk) => tx.insert(carImages).values(chunk), 2000);
    // Price changes for the car pages' price history (issue 35): the trigger records later ones.
    await insertChunks(priceHistory, (chunk) => tx.insert(carPriceChanges).values(chunk), 1000);
    if (alerts.length > 0) {
      await tx.insert(customers).values(alerts.flatMap((a) => a.customers));
      await tx.insert(alertSubscriptions).values(alerts.flatMap((a) => a.subscriptions));
      await tx.insert(favourites).values(alerts.flatMap((a) => a.favourites));
      await tx.insert(savedSearches).values(alerts.flatMap((a) => a.savedSearches));
      await tx.insert(carPriceChanges).values(alerts.flatMap((a) => a.priceChanges));
      await tx.insert(alertProgress).values(alerts.flatMap((a) => a.progress));
    }
    const processors = plans.flatMap((p) => p.stock.processors);
    await insertChunks(processors, (chunk) => tx.insert(carPaymentProcessors).values(chunk));

    // Four weeks of real-visitor web vitals (decision 058), for the Dashboard API's web_vitals.json.
    await insertChunks(plans.flatMap(({ site }) => vitalsFor(site, now)), (chunk) => tx.insert(webVitals).values(chunk), 1000);

    await resetSequences(tx);
  });
}

function historyReportPdf(site: SiteSeed): Buffer {
  const us = site.spelling === 'us';
  return simplePdf(`${site.name} vehicle history report`, [
    { text: `${site.name}`, size: 20, bold: true },
    { text: 'Vehicle history report (demonstration copy)', size: 14, gap: 28 },
    { text: `Prepared for customers of ${site.name}, ${site.city} ${site.state}.`, gap: 30 },
    { text: 'Written-off register: no record found.' },
    { text: 'Stolen vehicle register: no record found.' },
    { text: us ? 'Title status: clean.' : 'Finance owing (PPSR): no security interest recorded.' },
    { text: `${us ? 'Odometer' : 'Odometer'} readings: consistent with service history.` },
    { text: 'Previous owners: as per the vehicle listing.' },
    { text: `Questions? Call ${site.phone} or email ${site.email}.`, gap: 30 },
    { text: 'This is sample data generated for the demo site. It describes no real vehicle.', size: 9, gap: 40 },
  ]);
}

async function writeMedia(
  mediaDir: string,
  plans: SitePlan[],
  photos: PhotoSpec[],
  options: SeedOptions,
): Promise<{ written: number; skipped: number }> {
  const store = localMediaStore(mediaDir);
  for (const { site } of plans) {
    const theme = websiteConfigSchema.parse(site.config).theme;
    await store.put(`logos/${site.slug}.svg`, logoSvg(site.name, theme));
    await store.put(`reports/${site.slug}.pdf`, historyReportPdf(site));
  }
  return renderPhotos(store, photos, { concurrency: options.concurrency ?? 4 });
}

/**
 * Loads the eight demo dealers, replacing any earlier copy of them (one transaction). The same
 * data on every run: only dates that must be recent move with `now`.
 */
export async function seedDemoData(db: Db, options: SeedOptions): Promise<SeedSummary> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const now = options.now ?? new Date();

  const plans: SitePlan[] = DEMO_SITES.map((site) => {
    const parsed = websiteConfigSchema.safeParse(site.config);
    if (!parsed.success) throw new Error(`Demo website ${site.slug} has an invalid configuration: ${parsed.error.message}`);
    return { site, stock: generateStock(site, now) };
  });

  const photos = new Map<string, PhotoSpec>();
  for (const { stock } of plans) for (const [key, spec] of stock.photos) photos.set(key, spec);
  const imageRows = plans.reduce((n, p) => n + p.stock.images.length, 0);
  const carCount = plans.reduce((n, p) => n + p.stock.cars.length, 0);
  log(`Seeding ${plans.length} demo websites: ${carCount} vehicles, ${imageRows} photos (${photos.size} distinct files).`);

  const media = options.mediaDir
    ? writeMedia(options.mediaDir, plans, [...photos.values()], options).then((result) => {
        log(`Photos: ${result.written} rendered, ${result.skipped} already present.`);
        return result;
      })
    : Promise.resolve({ written: 0, skipped: 0 });
  const [mediaResult] = await Promise.all([media, writeDatabase(db, plans, now)
      // Fresh statistics, so the planner picks the search indexes at once (PGlite has no autovacuum).
      .then(() => db.execute(sql`analyze`))
      .then(() => log('Database rows written.'))]);

  const carsByStatus = { in_stock: 0, coming_soon: 0, sold: 0 };
  const carsByWebsite: Record<string, number> = {};
  for (const { site, stock } of plans) {
    carsByWebsite[site.slug] = stock.cars.length;
    for (const car of stock.cars) carsByStatus[car.status ?? 'in_stock']++;
  }
  return {
    websites: plans.length,
    cars: carCount,
    carsByStatus,
    carsByWebsite,
    imageRows,
    photoFiles: photos.size,
    imagesWritten: mediaResult.written,
    imagesSkipped: mediaResult.skipped,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}
