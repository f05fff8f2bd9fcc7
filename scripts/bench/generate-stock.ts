/**
 * The stock-search benchmark's data set: 50 car dealers with 2,000 vehicles each (100,000 cars),
 * generated from fixed seeds so every run and every machine gets the same rows. Dates are relative
 * to BENCH_NOW (a fixed instant), not to the clock, so the data does not drift between runs.
 *
 * Reuses the demo seed's catalogue (real makes, models, badges, new prices), its seeded RNG, its
 * VIN maker and its photo keys; nothing here is written to the database (see load.ts).
 */
import type { cars, dealerships, locations, websiteDomains, websites } from '../../src/db/schema';
import { AU_CARS, COLOURS, COLOUR_WEIGHTS, SKODA_CARS, type ModelSpec } from '@/demo/catalogue';
import { weeklyHours } from '@/modules/locations/locations.hours';
import { Random } from '@/demo/random';
import { makeVin, photoKey, slugify, type PhotoSpec } from '@/demo/stock';

/** Bump whenever the generated rows change: a stored bench database with another version is rebuilt. */
export const GENERATOR_VERSION = 'search-1';
export const WEBSITE_COUNT = 50;
export const CARS_PER_WEBSITE = 2_000;
/** The instant the data is generated around ('now' for created and sold dates). */
export const BENCH_NOW = new Date('2026-11-01T00:00:00Z');
/** Newest model year on the lots. */
const CURRENT_MODEL_YEAR = 2026;
const DAY = 86_400_000;

/** Every bench website's slug starts so: `bench-07-…`. Used to refuse to touch a database of real dealers. */
export const BENCH_SLUG_PATTERN = /^bench-\d{2}-[a-z0-9-]+$/;
export const isBenchSlug = (slug: string) => BENCH_SLUG_PATTERN.test(slug);

export type WebsiteRow = typeof websites.$inferInsert & { id: number };
export type DomainRow = typeof websiteDomains.$inferInsert;
export type DealershipRow = typeof dealerships.$inferInsert & { id: number };
export type LocationRow = typeof locations.$inferInsert & { id: number };
export type CarRow = typeof cars.$inferInsert & { id: number; websiteId: number; stocknum: string };

export type BenchData = {
  websites: WebsiteRow[];
  domains: DomainRow[];
  dealerships: DealershipRow[];
  locations: LocationRow[];
  cars: CarRow[];
  /** One placeholder photo per model and colour: the cars' primary images. */
  photos: Map<string, PhotoSpec>;
};

type Town = { city: string; state: string; postcode: string; lat: number; long: number; timeZone: string; area: string };

const SYD = 'Australia/Sydney';
const MEL = 'Australia/Melbourne';
const BNE = 'Australia/Brisbane';
const ADL = 'Australia/Adelaide';
const PER = 'Australia/Perth';
const HBA = 'Australia/Hobart';

/** Real towns (approximate centroids); the dealers in them are fictional. */
const TOWNS: readonly Town[] = [
  { city: 'Parramatta', state: 'NSW', postcode: '2150', lat: -33.815, long: 151.001, timeZone: SYD, area: '02' },
  { city: 'Penrith', state: 'NSW', postcode: '2750', lat: -33.751, long: 150.694, timeZone: SYD, area: '02' },
  { city: 'Liverpool', state: 'NSW', postcode: '2170', lat: -33.92, long: 150.924, timeZone: SYD, area: '02' },
  { city: 'Gosford', state: 'NSW', postcode: '2250', lat: -33.425, long: 151.342, timeZone: SYD, area: '02' },
  { city: 'Newcastle', state: 'NSW', postcode: '2300', lat: -32.927, long: 151.776, timeZone: SYD, area: '02' },
  { city: 'Wollongong', state: 'NSW', postcode: '2500', lat: -34.424, long: 150.893, timeZone: SYD, area: '02' },
  { city: 'Wagga Wagga', state: 'NSW', postcode: '2650', lat: -35.115, long: 147.367, timeZone: SYD, area: '02' },
  { city: 'Dubbo', state: 'NSW', postcode: '2830', lat: -32.249, long: 148.601, timeZone: SYD, area: '02' },
  { city: 'Canberra', state: 'ACT', postcode: '2600', lat: -35.281, long: 149.129, timeZone: SYD, area: '02' },
  { city: 'Ringwood', state: 'VIC', postcode: '3134', lat: -37.815, long: 145.229, timeZone: MEL, area: '03' },
  { city: 'Dandenong', state: 'VIC', postcode: '3175', lat: -37.987, long: 145.215, timeZone: MEL, area: '03' },
  { city: 'Geelong', state: 'VIC', postcode: '3220', lat: -38.149, long: 144.361, timeZone: MEL, area: '03' },
  { city: 'Ballarat', state: 'VIC', postcode: '3350', lat: -37.562, long: 143.85, timeZone: MEL, area: '03' },
  { city: 'Bendigo', state: 'VIC', postcode: '3550', lat: -36.757, long: 144.279, timeZone: MEL, area: '03' },
  { city: 'Essendon', state: 'VIC', postcode: '3040', lat: -37.756, long: 144.918, timeZone: MEL, area: '03' },
  { city: 'Springwood', state: 'QLD', postcode: '4127', lat: -27.612, long: 153.129, timeZone: BNE, area: '07' },
  { city: 'Southport', state: 'QLD', postcode: '4215', lat: -27.967, long: 153.4, timeZone: BNE, area: '07' },
  { city: 'Maroochydore', state: 'QLD', postcode: '4558', lat: -26.654, long: 153.091, timeZone: BNE, area: '07' },
  { city: 'Toowoomba', state: 'QLD', postcode: '4350', lat: -27.56, long: 151.953, timeZone: BNE, area: '07' },
  { city: 'Townsville', state: 'QLD', postcode: '4810', lat: -19.259, long: 146.817, timeZone: BNE, area: '07' },
  { city: 'Cairns', state: 'QLD', postcode: '4870', lat: -16.92, long: 145.771, timeZone: BNE, area: '07' },
  { city: 'Mackay', state: 'QLD', postcode: '4740', lat: -21.141, long: 149.186, timeZone: BNE, area: '07' },
  { city: 'Adelaide', state: 'SA', postcode: '5000', lat: -34.929, long: 138.601, timeZone: ADL, area: '08' },
  { city: 'Mount Gambier', state: 'SA', postcode: '5290', lat: -37.829, long: 140.783, timeZone: ADL, area: '08' },
  { city: 'Osborne Park', state: 'WA', postcode: '6017', lat: -31.9, long: 115.81, timeZone: PER, area: '08' },
  { city: 'Midland', state: 'WA', postcode: '6056', lat: -31.888, long: 116.01, timeZone: PER, area: '08' },
  { city: 'Bunbury', state: 'WA', postcode: '6230', lat: -33.327, long: 115.641, timeZone: PER, area: '08' },
  { city: 'Hobart', state: 'TAS', postcode: '7000', lat: -42.882, long: 147.327, timeZone: HBA, area: '03' },
  { city: 'Launceston', state: 'TAS', postcode: '7250', lat: -41.434, long: 147.137, timeZone: HBA, area: '03' },
  { city: 'Darwin', state: 'NT', postcode: '0800', lat: -12.463, long: 130.844, timeZone: 'Australia/Darwin', area: '08' },
];

const NAME_SUFFIXES = ['Motors', 'Auto Group', 'Car Centre', 'Motor Group', 'Automotive', 'Cars', 'Vehicle Centre', 'Autos'] as const;
const STREETS = ['Pacific Highway', 'Main Road', 'Church Street', 'Princes Highway', 'High Street', 'Industrial Drive', 'Nepean Highway', 'Great Eastern Highway', 'Gympie Road', 'Victoria Road'] as const;

const ALL_MODELS: readonly ModelSpec[] = [...AU_CARS, ...SKODA_CARS];
const MODELS_BY_MAKE = new Map<string, ModelSpec[]>();
for (const model of ALL_MODELS) MODELS_BY_MAKE.set(model.make, [...(MODELS_BY_MAKE.get(model.make) ?? []), model]);

/** How common each make is on Australian used-car lots (relative). */
const MAKE_WEIGHTS: ReadonlyArray<readonly [string, number]> = (
  [
    ['Toyota', 20],
    ['Mazda', 10],
    ['Ford', 9],
    ['Hyundai', 8],
    ['Kia', 8],
    ['Mitsubishi', 7],
    ['Nissan', 5],
    ['MG', 5],
    ['Volkswagen', 4],
    ['Subaru', 4],
    ['Isuzu', 4],
    ['Honda', 3],
    ['Tesla', 3],
    ['BYD', 3],
    ['GWM', 3],
    ['Chery', 3],
    ['Suzuki', 3],
    ['Holden', 2],
    ['ŠKODA', 2],
  ] as const
).filter(([make]) => MODELS_BY_MAKE.has(make));

/** Makes a franchise dealership may hold (new and demo stock). */
const FRANCHISES = ['Toyota', 'Mazda', 'Ford', 'Hyundai', 'Kia', 'Mitsubishi', 'Nissan', 'MG', 'Volkswagen', 'Subaru', 'Isuzu', 'Chery', 'BYD', 'GWM', 'Suzuki', 'ŠKODA'].filter(
  (make) => MODELS_BY_MAKE.has(make),
);

const TAG_SPECIAL = 'Special';
const TAG_PREORDER = 'Pre-order';
const TAG_TEST_DRIVE = 'Test Drive Only';

const pad2 = (n: number) => String(n).padStart(2, '0');
const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';

/** Two letters per website for its stock numbers: AB12345. */
function stockPrefix(index: number): string {
  return `${LETTERS[Math.floor(index / LETTERS.length) % LETTERS.length]}${LETTERS[index % LETTERS.length]}`;
}

/** Rounds a price the way dealers write them: 24,990. */
function dealerPrice(value: number): number {
  return Math.max(1990, Math.round(value / 1000) * 1000 - 10);
}

function phone(rng: Random, area: string): string {
  // 5550 xxxx: the range set aside for fiction.
  return `(${area}) 5550 ${rng.chars('0123456789', 4)}`;
}

type SitePlan = {
  website: WebsiteRow;
  dealerships: Array<DealershipRow & { franchiseMakes: string[] }>;
  locations: LocationRow[];
  prefix: string;
  mix: { new: number; used: number; demo: number };
};

function planSite(index: number): SitePlan {
  const id = index + 1;
  const rng = new Random(`bench:site:${id}`);
  const home = TOWNS[index % TOWNS.length];
  const name = `${home.city} ${NAME_SUFFIXES[index % NAME_SUFFIXES.length]}${index >= TOWNS.length ? ' North' : ''}`;
  const slug = `bench-${pad2(id)}-${slugify(name)}`;
  const domain = `${slug.slice('bench-00-'.length)}.example`;
  const website: WebsiteRow = {
    id,
    slug,
    name,
    template: 'default',
    phone: phone(rng, home.area),
    logoUrl: null,
    url: `https://${domain}`,
    city: home.city,
    state: home.state,
    overrideCity: null,
    dealershipGroup: `${name} Group`,
    manufacturerId: null,
    config: {},
    secrets: {},
    stockVersion: 1,
    createdAt: BENCH_NOW,
    updatedAt: BENCH_NOW,
  };

  const dealershipCount = rng.weighted([
    [1, 3],
    [2, 4],
    [3, 3],
  ] as const);
  const franchiseMakes = rng.sample(FRANCHISES, dealershipCount + 1);
  const dealers = Array.from({ length: dealershipCount }, (_, n) => {
    const makes = n === 0 && dealershipCount === 1 ? franchiseMakes.slice(0, 2) : [franchiseMakes[n]];
    const dealerName = `${name} ${makes.join(' & ')}`;
    return {
      id: id * 10 + n + 1,
      websiteId: id,
      slug: `${slug}-${slugify(makes.join('-'))}`,
      name: dealerName,
      group: website.dealershipGroup,
      manufacturerId: null,
      phone: phone(rng, home.area),
      email: `${slugify(makes[0])}@${domain}`,
      whatsappNumber: null,
      dealerLicenseNumber: `MD${rng.chars('0123456789', 6)}`,
      stripePublishableKey: null,
      createdAt: BENCH_NOW,
      franchiseMakes: makes,
    };
  });

  // One sales yard per dealership; towns near the home town (the next ones in the list).
  const locationRows: LocationRow[] = dealers.map((dealer, n) => {
    const town = n === 0 ? home : TOWNS[(index + n * 7) % TOWNS.length];
    return {
      id: id * 10 + n + 1,
      websiteId: id,
      dealershipId: dealer.id,
      name: `${name} ${town.city}${n > 0 && town === home ? ` ${n + 1}` : ''}`,
      slug: `${slugify(town.city)}${n > 0 && town === home ? `-${n + 1}` : ''}`,
      position: n,
      primary: n === 0,
      locationType: 'sales',
      locationSubtypes: [],
      manufacturers: dealer.franchiseMakes.map((make) => slugify(make)),
      visible: true,
      dealerLicenseNumber: dealer.dealerLicenseNumber,
      street: `${rng.int(2, 480)} ${rng.pick(STREETS)}`,
      city: town.city,
      state: town.state,
      postcode: town.postcode,
      country: 'AU',
      lat: town.lat,
      long: town.long,
      placeId: null,
      placeUrl: `https://www.google.com/maps/search/?api=1&query=${town.lat},${town.long}`,
      island: null,
      timeZone: town.timeZone,
      phone: dealer.phone,
      landlinePhone: null,
      mobile: null,
      leadEmail: `${slugify(town.city)}@${domain}`,
      social: {},
      openingHours: weeklyHours({ weekdays: ['08:30', '17:30'], saturday: ['08:30', '16:00'], sunday: rng.chance(0.3) ? ['10:00', '16:00'] : null }),
      settings: {},
      reviewsCount: rng.int(20, 1500),
      reviewsAverageRating: Math.round((3.8 + rng.float() * 1.2) * 10) / 10,
      createdAt: BENCH_NOW,
    };
  });

  const usedShare = rng.int(45, 75);
  const demoShare = rng.int(5, 15);
  return {
    website,
    dealerships: dealers,
    locations: locationRows,
    prefix: stockPrefix(index * 7 + 3),
    mix: { new: 100 - usedShare - demoShare, used: usedShare, demo: demoShare },
  };
}

function carColour(rng: Random): string {
  return rng.weighted(COLOUR_WEIGHTS.car);
}

function description(name: string, colour: string, km: number, carType: string, location: LocationRow): string {
  const distance = `${km.toLocaleString('en-AU')} km`;
  const opening =
    carType === 'new'
      ? `Brand new ${name} in ${colour}, available now at ${location.name}.`
      : carType === 'demo'
        ? `Save on this ex-demonstrator ${name} in ${colour}, with only ${distance} and the balance of the factory warranty.`
        : `This used ${name} in ${colour} has covered ${distance} and is ready for its next owner at ${location.name}.`;
  return `${opening}\n\nFinance can be arranged on the spot and trade-ins are welcome. Call ${location.phone} or send an enquiry to book an inspection in ${location.city}.`;
}

function generateCars(plan: SitePlan, photos: Map<string, PhotoSpec>): CarRow[] {
  const { website, dealerships: dealers, locations: yards, prefix, mix } = plan;
  const base = new Random(`bench:stock:${website.id}`);
  const rows: CarRow[] = [];
  const nowMs = BENCH_NOW.getTime();
  const makeWeights = MAKE_WEIGHTS.map(([make, weight]) => [make, weight] as const);

  for (let index = 0; index < CARS_PER_WEBSITE; index++) {
    const rng = base.fork(`car:${index}`);
    const id = website.id * 100_000 + index + 1;
    const carType = rng.weighted([
      ['new', mix.new],
      ['used', mix.used],
      ['demo', mix.demo],
    ] as const);

    const dealerIndex = rng.int(0, dealers.length - 1);
    const dealer = dealers[dealerIndex];
    const location = yards[dealerIndex];
    const make = carType === 'used' ? rng.weighted(makeWeights) : rng.pick(dealer.franchiseMakes);
    const model = rng.pick(MODELS_BY_MAKE.get(make)!);
    const [badge, newPrice, engine, fuel, drive, transmission] = rng.pick(model.variants);
    const colour = carColour(rng);

    let year: number;
    let km: number;
    let price: number;
    if (carType === 'new') {
      year = rng.chance(0.15) ? CURRENT_MODEL_YEAR - 1 : CURRENT_MODEL_YEAR;
      km = rng.int(5, 40);
      price = dealerPrice(newPrice * (year < CURRENT_MODEL_YEAR ? 0.95 : 1));
    } else if (carType === 'demo') {
      year = rng.chance(0.5) ? CURRENT_MODEL_YEAR - 1 : CURRENT_MODEL_YEAR;
      km = rng.int(900, 9_500);
      price = dealerPrice(newPrice * (0.86 + rng.float() * 0.06));
    } else {
      const oldest = Math.max(model.from, 2010);
      const span = CURRENT_MODEL_YEAR - 1 - oldest;
      year = CURRENT_MODEL_YEAR - 1 - Math.floor(span * rng.float() ** 1.6);
      const age = CURRENT_MODEL_YEAR - year;
      km = Math.round(rng.int(9_000, 19_000) * (age - 0.5 + rng.float()));
      price = dealerPrice(newPrice * 0.885 ** age * (1 - Math.min(0.25, km / 1_200_000)) * (0.92 + rng.float() * 0.16));
    }

    // Status: sold cars stay in the table; about one in twelve of them sold in the last 3 days.
    let status = rng.weighted([
      ['in_stock', 84],
      ['coming_soon', 5],
      ['sold', 11],
    ] as const);
    let soldDate: Date | null = null;
    let createdAt: Date;
    if (status === 'sold') {
      soldDate = new Date(nowMs - rng.float() * 40 * DAY);
      createdAt = new Date(soldDate.getTime() - (7 + rng.float() * 120) * DAY);
    } else {
      // Spread over a year, more of it recent (stock turns over).
      createdAt = new Date(nowMs - rng.float() ** 1.5 * 365 * DAY);
    }

    let tag: string | null = null;
    let preorder = false;
    let beforePrice: number | null = null;
    if (carType === 'new' && rng.chance(0.05)) {
      tag = TAG_PREORDER;
      preorder = true;
      if (status !== 'sold') status = 'coming_soon';
    } else if (carType === 'demo' && rng.chance(0.3)) {
      tag = TAG_TEST_DRIVE;
    } else if (rng.chance(0.07)) {
      tag = TAG_SPECIAL;
      beforePrice = price + rng.int(2, 8) * 500;
    }
    if (rng.chance(0.005)) price = 0;

    let photosCount: number = rng.weighted([
      [1, 1],
      [3, 1],
      [6, 2],
      [10, 3],
      [15, 3],
      [20, 3],
      [30, 2],
    ] as const);
    if (status === 'coming_soon' && rng.chance(0.5)) photosCount = 0;
    let primaryImageUrl: string | null = null;
    if (photosCount > 0) {
      const spec = { itemType: model.itemType, silhouette: model.silhouette, make: model.make, model: model.model, colour, colourHex: COLOURS[colour].hex, angle: 'Front three-quarter' };
      const key = photoKey(spec);
      if (!photos.has(key)) photos.set(key, { key, ...spec });
      primaryImageUrl = `/media/${key}`;
    }

    const name = [year, model.make, model.model, badge].join(' ');
    // 10000 + (index × 7919 mod 90000): distinct for every index below 90,000 (7919 is prime).
    const stocknum = `${prefix}${10_000 + ((index * 7919) % 90_000)}`;
    const series = model.series && rng.chance(0.8) ? model.series[Math.min(model.series.length - 1, Math.floor((CURRENT_MODEL_YEAR - year) / 4))] : null;
    rows.push({
      id,
      websiteId: website.id,
      dealershipId: dealer.id,
      locationId: location.id,
      slug: `${slugify(name)}-${id}`,
      name,
      make: model.make,
      model: model.model,
      badge,
      series,
      year,
      km,
      price,
      priceType: price === 0 ? '' : carType === 'new' && rng.chance(0.4) ? 'Excl. Govt. Charges' : 'Drive Away',
      beforePrice,
      subscriptionPrice: year >= CURRENT_MODEL_YEAR - 3 && price > 0 && rng.chance(0.2) ? Math.round(price / 220 / 10) * 10 + 49 : null,
      carType,
      status,
      itemType: 'car',
      stocknum,
      vin: rng.chance(0.9) ? makeVin(rng, model.make, year) : null,
      nvic: rng.chance(0.5) ? rng.chars('0123456789ABCDEFGHJKLMNPRSTUVWXYZ', 6) : null,
      certified: carType === 'used' && rng.chance(0.12),
      reserved: status === 'in_stock' && rng.chance(0.03),
      soldDate,
      reservable: rng.chance(0.5) ? true : null,
      preorder,
      showOnDealerWebsite: !rng.chance(0.03),
      photosCount,
      tag,
      customRank: rng.chance(0.25) ? 0 : rng.int(1, 1000),
      colour,
      seats: model.seats,
      doors: model.doors,
      engine,
      simpleFuel: fuel === 'None' ? null : fuel,
      simpleBody: model.body,
      simpleDrive: drive,
      simpleTransmission: transmission === 'None' ? null : transmission,
      description: description(name, colour, km, carType, location),
      categories: [],
      features: [],
      primaryImageUrl,
      historyReportUrl: null,
      carsalesSellerIdentifier: null,
      city: location.city,
      state: location.state,
      autograbAverageMarketPrice: null,
      autograbStateAverageMarketPrice: null,
      createdAt,
      updatedAt: soldDate ?? createdAt,
    });
  }
  return rows;
}

/** The whole data set (about 2 s of CPU). */
export function generateBenchData(): BenchData {
  const plans = Array.from({ length: WEBSITE_COUNT }, (_, index) => planSite(index));
  const photos = new Map<string, PhotoSpec>();
  return {
    websites: plans.map((p) => p.website),
    domains: plans.map((p) => ({ websiteId: p.website.id, host: new URL(p.website.url!).host, primary: true })),
    dealerships: plans.flatMap((p) => p.dealerships.map(({ franchiseMakes: _makes, ...row }) => row)),
    locations: plans.flatMap((p) => p.locations),
    cars: plans.flatMap((p) => generateCars(p, photos)),
    photos,
  };
}
