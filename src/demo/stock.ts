import { slugify } from '@/lib/slug';
import { createHash } from 'node:crypto';
import type { carImages, carPaymentProcessors, carPriceChanges, cars } from '@/modules/stock/stock.schema';
import { mediaUrl } from '@/lib/media';
import { COLOURS, COLOUR_WEIGHTS, FEATURES, type ItemType, type ModelSpec, type Silhouette, type Variant } from './catalogue';
import { Random } from './random';
import type { DealershipSeed, LocationSeed, SiteSeed } from './sites';

export type CarRow = typeof cars.$inferInsert & { id: number };
export type CarImageRow = typeof carImages.$inferInsert;
export type PaymentProcessorRow = typeof carPaymentProcessors.$inferInsert;

/** Everything needed to draw one placeholder photo; photos with equal specs share one file. */
export type PhotoSpec = {
  key: string;
  itemType: ItemType;
  silhouette: Silhouette;
  make: string;
  model: string;
  colour: string;
  colourHex: string;
  angle: string;
};

export type GeneratedStock = {
  cars: CarRow[];
  images: CarImageRow[];
  processors: PaymentProcessorRow[];
  photos: Map<string, PhotoSpec>;
};

const DAY = 86_400_000;
/** The newest model year on the lots. Fixed so the data is the same whenever it is seeded. */
export const CURRENT_MODEL_YEAR = 2026;
/** Bumped whenever the drawing changes: photo files are cached as immutable, so new art needs new keys. */
const PHOTO_ART_VERSION = 'v3';

export const ANGLES: Record<ItemType, readonly string[]> = {
  car: ['Front three-quarter', 'Side', 'Rear three-quarter', 'Front', 'Rear', 'Interior', 'Dashboard', 'Rear seats', 'Boot', 'Wheel', 'Engine bay', 'Odometer'],
  truck: ['Front three-quarter', 'Side', 'Rear three-quarter', 'Front', 'Rear', 'Interior', 'Dashboard', 'Body', 'Wheel', 'Engine bay', 'Odometer', 'Other side'],
  campervan: ['Front three-quarter', 'Side', 'Rear three-quarter', 'Front', 'Rear', 'Interior', 'Dashboard', 'Bed', 'Kitchen', 'Bathroom', 'Wheel', 'Odometer'],
  motorcycle: ['Side', 'Front three-quarter', 'Rear three-quarter', 'Front', 'Rear', 'Other side', 'Cockpit', 'Engine', 'Wheel', 'Exhaust', 'Seat', 'Tank'],
  caravan: ['Side', 'Front three-quarter', 'Rear three-quarter', 'Front', 'Rear', 'Interior', 'Bed', 'Kitchen', 'Bathroom', 'Lounge', 'Drawbar', 'Wheel'],
};

export const TAGS = {
  special: 'Special',
  preorder: 'Pre-order',
  testDrive: 'Test Drive Only',
  testDriveStars: '*** Test Drive Vehicle Only ***',
} as const;

export { slugify };

export function photoKey(spec: Pick<PhotoSpec, 'itemType' | 'make' | 'model' | 'colour' | 'angle'>): string {
  const hash = createHash('sha1')
    .update([PHOTO_ART_VERSION, spec.itemType, spec.make, spec.model, spec.colour, spec.angle].join('|'))
    .digest('hex')
    .slice(0, 20);
  return `cars/${hash}.jpg`;
}

const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
/** ISO 3779 transliteration of letters for the check digit (I, O and Q never appear). */
const VIN_VALUES: Record<string, number> = {
  A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H: 8, J: 1, K: 2, L: 3, M: 4, N: 5, P: 7, R: 9, S: 2, T: 3, U: 4, V: 5, W: 6, X: 7, Y: 8, Z: 9,
};
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
const YEAR_CODES = 'ABCDEFGHJKLMNPRSTVWXY123456789';

const WMI: Record<string, string> = {
  Toyota: 'JTM',
  Mazda: 'JM0',
  Kia: 'KNA',
  Chery: 'LVV',
  Ford: 'MNA',
  Hyundai: 'KMH',
  Mitsubishi: 'MMA',
  Nissan: 'JN1',
  Volkswagen: 'WVW',
  Subaru: 'JF1',
  Isuzu: 'MPA',
  MG: 'LSJ',
  Honda: 'JHM',
  Tesla: '5YJ',
  BYD: 'LGX',
  GWM: 'LGW',
  Suzuki: 'JS3',
  Holden: '6G1',
  'ŠKODA': 'TMB',
  Chevrolet: '1GC',
  Ram: '1C6',
  Jeep: '1C4',
  GMC: '1GT',
  Hino: 'JHH',
  Fuso: 'JLF',
  UD: 'JNC',
  Iveco: 'ZCF',
  Kenworth: '1XK',
  Yamaha: 'JYA',
  Kawasaki: 'JKA',
  'Harley-Davidson': '1HD',
  Ducati: 'ZDM',
  BMW: 'WB1',
  KTM: 'VBK',
  Triumph: 'SMT',
};

/** A 17-character VIN with a valid check digit (position 9) and model-year code (position 10). */
export function makeVin(rng: Random, make: string, year: number): string {
  // Unknown makes (Australian-built caravans and conversions) get an Australian WMI.
  const wmi = WMI[make] ?? '6U9';
  const chars = [...wmi, ...rng.chars(VIN_CHARS, 5), '0', YEAR_CODES[(year - 2010) % 30], ...rng.chars(VIN_CHARS, 1), ...rng.chars('0123456789', 6)];
  const sum = chars.reduce((total, c, i) => total + (/\d/.test(c) ? Number(c) : VIN_VALUES[c]) * VIN_WEIGHTS[i], 0);
  const check = sum % 11;
  chars[8] = check === 10 ? 'X' : String(check);
  return chars.join('');
}

export function vinCheckDigitValid(vin: string): boolean {
  if (!/^[A-HJ-NPR-Z0-9]{17}$/.test(vin)) return false;
  const sum = [...vin].reduce((total, c, i) => total + (/\d/.test(c) ? Number(c) : VIN_VALUES[c]) * VIN_WEIGHTS[i], 0);
  const check = sum % 11;
  return vin[8] === (check === 10 ? 'X' : String(check));
}

/** Rounds a price the way dealers write them: 24,990 / 1,490. */
function dealerPrice(value: number): number {
  if (value < 2000) return Math.max(990, Math.round(value / 100) * 100 - 10);
  return Math.max(1990, Math.round(value / 1000) * 1000 - 10);
}

function palette(model: ModelSpec): string[] {
  const rng = new Random(`palette:${model.itemType}:${model.make}:${model.model}`);
  const weights = COLOUR_WEIGHTS[model.itemType];
  const size = model.itemType === 'caravan' || model.itemType === 'campervan' || model.itemType === 'truck' ? 2 : 3;
  const chosen = new Set<string>();
  while (chosen.size < Math.min(size, weights.length)) chosen.add(rng.weighted(weights));
  return [...chosen];
}

type Scenario =
  | 'price-zero'
  | 'price-low'
  | 'preorder'
  | 'hidden'
  | 'not-reservable'
  | 'reserved'
  | 'sold-1d'
  | 'sold-2d'
  | 'sold-4d'
  | 'sold-old'
  | 'coming-soon'
  | 'certified'
  | 'special'
  | 'just-arrived'
  | 'below-market';

/** The first cars of every site cover each display rule at least once; the rest are random. */
const SCENARIOS: readonly Scenario[] = [
  'price-zero',
  'price-low',
  'preorder',
  'hidden',
  'not-reservable',
  'reserved',
  'sold-1d',
  'sold-2d',
  'sold-4d',
  'sold-old',
  'coming-soon',
  'certified',
  'special',
  'just-arrived',
  'below-market',
];

function weightedCarType(rng: Random, site: SiteSeed): 'new' | 'used' | 'demo' {
  const { new: n, used, demo } = site.stock.carTypes;
  return rng.weighted([
    ['new', n],
    ['used', used],
    ['demo', demo],
  ] as const);
}

function franchiseDealerships(site: SiteSeed): DealershipSeed[] {
  return site.dealerships.filter((d) => d.franchiseMakes.length > 0);
}

function stockLocations(site: SiteSeed, dealershipId: number): LocationSeed[] {
  const own = site.locations.filter((l) => l.holdsStock && l.dealershipId === dealershipId);
  return own.length > 0 ? own : site.locations.filter((l) => l.holdsStock);
}

function kmPerYear(itemType: ItemType, rng: Random): number {
  switch (itemType) {
    case 'truck':
      return rng.int(30_000, 70_000);
    case 'motorcycle':
      return rng.int(2_000, 7_000);
    case 'caravan':
      return 0;
    case 'campervan':
      return rng.int(8_000, 16_000);
    default:
      return rng.int(9_000, 19_000);
  }
}

function categoriesFor(model: ModelSpec, variant: Variant, price: number, priceFactor: number): string[] {
  const [, , , fuel, drive] = variant;
  const categories: string[] = [];
  if (model.itemType === 'car') {
    if (model.body === 'SUV' && (model.seats ?? 0) >= 7) categories.push('Family');
    if (drive === 'Four Wheel Drive') categories.push('4x4 & Off-road');
    if (model.body === 'Ute' || model.body === 'Van' || model.body === 'Pickup Truck') categories.push('Work');
    if (fuel === 'Electric' || fuel === 'Hybrid' || fuel === 'Plug-in Hybrid') categories.push('Electric & Hybrid');
    if (price > 0 && price < 20_000 * priceFactor) categories.push('Under $20k');
    if (/GT|RS|Type R|GTI|WRX|Raptor|N$|SS-V|Mustang/.test(`${variant[0]} ${model.model}`)) categories.push('Performance');
  } else if (model.itemType === 'truck') {
    categories.push(model.body === 'Prime Mover' ? 'Heavy' : variant[1] > 150_000 ? 'Medium' : 'Light');
  } else if (model.itemType === 'motorcycle') {
    if (/LAMS|400|390|300|500|Vulcan S/.test(`${variant[0]} ${model.model}`)) categories.push('Learner approved (LAMS)');
    categories.push(model.body);
  } else {
    if (/Off-Road/.test(model.body)) categories.push('Off-road');
    if ((model.seats ?? 0) >= 4) categories.push('Family');
    categories.push(model.itemType === 'campervan' ? 'Self-drive' : 'Towable');
  }
  return categories;
}

function stockNumber(site: SiteSeed, index: number, carType: string, rng: Random): string {
  const digits = String(1000 + ((index * 7919) % 9000));
  switch (site.stock.stocknumStyle) {
    case 'prefix':
      return `${site.stockPrefix}${digits}${rng.chars('ABCDEFGHJKLMNPRSTUVWXYZ', 1)}`;
    case 'letter':
      return `${carType === 'new' ? 'N' : carType === 'demo' ? 'D' : 'U'}${digits}`;
    default:
      return `${2}${digits}`;
  }
}

function formatNumber(value: number, spelling: 'au' | 'us'): string {
  return value.toLocaleString(spelling === 'us' ? 'en-US' : 'en-AU');
}

function describe(opts: {
  site: SiteSeed;
  location: LocationSeed;
  name: string;
  model: ModelSpec;
  variant: Variant;
  colour: string;
  km: number;
  carType: string;
  features: string[];
}): string {
  const { site, location, name, model, variant, colour, km, carType, features } = opts;
  const us = site.spelling === 'us';
  const [, , engine, fuel, drive, transmission] = variant;
  const distance = us ? `${formatNumber(Math.round(km / 1.609344), 'us')} miles` : `${formatNumber(km, 'au')} km`;
  const colourWord = us ? 'color' : 'colour';
  const used = site.config.usedConditionLabel === 'pre-owned' || us ? 'pre-owned' : 'used';
  const opening =
    carType === 'new'
      ? `Brand new ${name} in ${colour}, available now at ${location.name}.`
      : carType === 'demo'
        ? `Save on this ex-demonstrator ${name} in ${colour}, with only ${distance} and the balance of the factory warranty.`
        : `This ${used} ${name} in ${colour} has covered ${distance} and is ready for its next owner at ${location.name}.`;
  const mechanical =
    model.itemType === 'caravan'
      ? `It sleeps ${model.seats} and is built for ${model.body === 'Off-Road Caravan' ? 'corrugations and red dirt' : 'sealed roads and caravan parks'}, with a tare weight to suit most family tow vehicles.`
      : `Power comes from a ${engine}${fuel && fuel !== 'None' ? ` (${us && fuel === 'Petrol' ? 'gas' : fuel.toLowerCase()})` : ''}${transmission && transmission !== 'None' ? ` with ${transmission.toLowerCase()} transmission` : ''}${drive && model.itemType !== 'motorcycle' ? `, ${drive.toLowerCase()}` : ''}.`;
  const highlights = `Highlights include ${features.slice(0, 4).map((f) => f.toLowerCase()).join(', ')} and more. The ${colourWord} is ${colour.toLowerCase()}.`;
  const closing = us
    ? `Financing is available for every credit situation and we take trade-ins. Call ${location.phone} or message us to schedule a test drive in ${location.city}.`
    : `Finance can be arranged on the spot and trade-ins are welcome. Call ${location.phone} or send an enquiry to book an inspection in ${location.city}.`;
  return [opening, mechanical, highlights, closing].join('\n\n');
}

/**
 * Generates one website's stock. Car ids are `websiteId * 100000 + n` so every car keeps its id
 * (and its /websites/{id}/cars/{slug}.json URL) across seeds. Times are relative to `now`.
 */
export function generateStock(site: SiteSeed, now: Date): GeneratedStock {
  const base = new Random(`${site.slug}:stock`);
  const generated: GeneratedStock = { cars: [], images: [], processors: [], photos: new Map() };
  const nowMs = now.getTime();
  const isAu = site.country === 'AU';

  for (let index = 0; index < site.stock.count; index++) {
    const rng = base.fork(`car:${index}`);
    const scenario: Scenario | null = index < SCENARIOS.length ? SCENARIOS[index] : null;
    const id = site.id * 100_000 + index + 1;

    let carType = weightedCarType(rng, site);
    if (scenario === 'preorder' && site.stock.carTypes.new > 0) carType = 'new';
    if ((scenario === 'certified' || scenario === 'below-market') && site.stock.carTypes.used > 0) carType = 'used';
    const franchise = franchiseDealerships(site);
    if (carType !== 'used' && franchise.length === 0) carType = 'used';

    let dealership: DealershipSeed;
    let models: readonly ModelSpec[];
    if (carType === 'used') {
      dealership = rng.pick(site.dealerships);
      models = rng.weighted(site.stock.used);
    } else {
      dealership = rng.pick(franchise);
      models = site.stock.franchise.filter((m) => dealership.franchiseMakes.includes(m.make));
    }
    const model = rng.pick(models);
    const variant = rng.pick(model.variants);
    const [badge, newPrice, engine, fuel, drive, transmission] = variant;
    const location = rng.pick(stockLocations(site, dealership.id));
    const colour = rng.weighted(palette(model).map((c) => [c, COLOUR_WEIGHTS[model.itemType].find(([n]) => n === c)![1]] as const));

    // Year, odometer and price.
    let year: number;
    let km: number;
    let price: number;
    const factor = site.stock.priceFactor;
    if (carType === 'new') {
      year = rng.chance(0.15) ? CURRENT_MODEL_YEAR - 1 : CURRENT_MODEL_YEAR;
      km = model.itemType === 'caravan' ? 0 : rng.int(5, 40);
      price = dealerPrice(newPrice * factor * (year < CURRENT_MODEL_YEAR ? 0.95 : 1));
    } else if (carType === 'demo') {
      year = rng.chance(0.5) ? CURRENT_MODEL_YEAR - 1 : CURRENT_MODEL_YEAR;
      km = model.itemType === 'caravan' ? 0 : rng.int(900, 9_500);
      price = dealerPrice(newPrice * factor * rng.float() * 0.06 + newPrice * factor * 0.86);
    } else {
      const oldest = Math.max(model.from, 2012);
      // Skewed towards recent years, as real yards are.
      const span = CURRENT_MODEL_YEAR - 1 - oldest;
      year = CURRENT_MODEL_YEAR - 1 - Math.floor(span * rng.float() ** 1.6);
      const age = CURRENT_MODEL_YEAR - year;
      const miles = site.config.distanceUnit === 'mi';
      const perYear = kmPerYear(model.itemType, rng);
      const raw = Math.round(perYear * (age - 0.5 + rng.float()));
      // US odometers read miles; the column is kilometres everywhere.
      km = miles ? Math.round(Math.round(raw * 0.8) * 1.609344) : raw;
      const depreciation = 0.885 ** age * (1 - Math.min(0.25, km / 1_200_000));
      price = dealerPrice(newPrice * factor * depreciation * (0.92 + rng.float() * 0.16));
    }

    // Status and dates.
    let status: 'in_stock' | 'coming_soon' | 'sold' = rng.weighted([
      ['in_stock', 82],
      ['coming_soon', 6],
      ['sold', 12],
    ] as const);
    let soldDate: Date | null = null;
    let createdAt: Date;
    const soldAgo = (days: number) => new Date(nowMs - days * DAY);
    if (scenario?.startsWith('sold-')) status = 'sold';
    else if (scenario === 'coming-soon') status = 'coming_soon';
    else if (scenario) status = 'in_stock';
    if (status === 'sold') {
      const recent = scenario ? scenario !== 'sold-old' : rng.chance(0.5);
      const days =
        scenario === 'sold-1d'
          ? 1.2
          : scenario === 'sold-2d'
            ? 2.5
            : scenario === 'sold-4d'
              ? 4.4
              : recent
                ? 1 + rng.float() * 4
                : rng.int(20, 300) + rng.float();
      soldDate = soldAgo(days);
      createdAt = new Date(soldDate.getTime() - rng.int(7, 90) * DAY - rng.int(0, 86_399) * 1000);
    } else {
      const justArrived = scenario === 'just-arrived' || (!scenario && rng.chance(0.1));
      const ageDays = justArrived ? 0.1 + rng.float() * 7.5 : 8.5 + rng.float() * 111.5;
      createdAt = new Date(nowMs - ageDays * DAY);
    }

    // Tags, flags and prices for the display rules.
    let tag: string | null = null;
    let preorder = false;
    let beforePrice: number | null = null;
    if ((scenario === 'preorder' || (!scenario && rng.chance(0.06))) && carType === 'new') {
      tag = TAGS.preorder;
      preorder = true;
      if (status !== 'sold') status = 'coming_soon';
      const r = rng.float();
      if (scenario === 'preorder' || r < 0.4) price = 0;
      else if (r < 0.6) price = rng.int(1, 10);
    } else if (carType === 'demo' && rng.chance(0.3)) {
      tag = rng.chance(0.6) ? TAGS.testDrive : TAGS.testDriveStars;
    } else if (scenario === 'special' || (!scenario && rng.chance(0.07))) {
      tag = TAGS.special;
      beforePrice = price + rng.int(2, 8) * 500;
    }
    if (!tag && carType === 'demo' && rng.chance(0.3)) beforePrice = dealerPrice(newPrice * factor);
    if (scenario === 'price-zero') price = 0;
    if (scenario === 'price-low') price = 150;
    if (!scenario && rng.chance(0.006)) price = rng.chance(0.5) ? 0 : rng.int(11, 200);

    const reserved = scenario === 'reserved' || (!scenario && status === 'in_stock' && rng.chance(0.04));
    const certified =
      scenario === 'certified' || (!scenario && carType === 'used' && rng.chance(site.config.usedConditionLabel === 'pre-owned' ? 0.35 : 0.12));
    const showOnDealerWebsite = !(scenario === 'hidden' || (!scenario && rng.chance(0.012)));
    const reservable = scenario === 'not-reservable' || (!scenario && rng.chance(0.03)) ? false : rng.chance(0.5) ? true : null;

    const name = [year, model.make, model.model, badge].join(' ');
    const slug = `${slugify(name)}-${id}`;
    const features = rng.sample(FEATURES[model.itemType], rng.int(6, 14));
    const stocknum = stockNumber(site, index, carType, rng);

    let subscriptionPrice: number | null = null;
    if (site.config.offersSubscription && model.itemType === 'car' && year >= CURRENT_MODEL_YEAR - 4 && price > 200 && rng.chance(0.3)) {
      subscriptionPrice = Math.round(price / 220 / 10) * 10 + 49;
    }

    let autograbAverage: number | null = null;
    let autograbState: number | null = null;
    if (isAu && carType === 'used' && price > 200 && (scenario === 'below-market' || rng.chance(0.35))) {
      const ratio = scenario === 'below-market' ? 1.12 : 0.94 + rng.float() * 0.18;
      autograbAverage = Math.round((price * ratio) / 10) * 10;
      autograbState = Math.round((autograbAverage * (0.97 + rng.float() * 0.06)) / 10) * 10;
    }

    const reportKey = `reports/${site.slug}.pdf`;
    const historyReportUrl = carType === 'used' && rng.chance(0.3) ? mediaUrl(reportKey) : null;

    // Photos: 3–12, except coming-soon cars not yet photographed and a few thin listings on the site with a photo minimum.
    let photoCount: number = rng.weighted([
      [3, 1],
      [4, 1],
      [5, 1],
      [6, 2],
      [7, 2],
      [8, 3],
      [9, 3],
      [10, 3],
      [11, 2],
      [12, 3],
    ] as const);
    if (status === 'coming_soon' && rng.chance(0.5)) photoCount = 0;
    if (site.config.search?.defaultFilters?.minPhotos && rng.chance(0.06)) photoCount = rng.int(1, 2);
    const angles = ANGLES[model.itemType];
    const colourHex = COLOURS[colour].hex;
    let primaryImageUrl: string | null = null;
    for (let position = 0; position < photoCount; position++) {
      const angle = angles[position];
      const spec = { itemType: model.itemType, silhouette: model.silhouette, make: model.make, model: model.model, colour, colourHex, angle };
      const key = photoKey(spec);
      if (!generated.photos.has(key)) generated.photos.set(key, { key, ...spec });
      const url = mediaUrl(key);
      if (position === 0) primaryImageUrl = url;
      generated.images.push({
        websiteId: site.id,
        carId: id,
        position,
        url,
        thumbnailUrl: null,
        width: 960,
        height: 640,
        alt: `${name} – ${angle.toLowerCase()}`,
      });
    }

    generated.cars.push({
      id,
      websiteId: site.id,
      dealershipId: dealership.id,
      locationId: location.id,
      slug,
      name,
      make: model.make,
      model: model.model,
      badge,
      series: model.series && rng.chance(0.8) ? model.series[Math.min(model.series.length - 1, Math.floor((CURRENT_MODEL_YEAR - year) / 4))] : null,
      year,
      km,
      price,
      priceType:
        price <= 10
          ? ''
          : site.country === 'US'
            ? rng.chance(0.5) ? 'Plus Tax, Title & License' : ''
            : site.country === 'NZ'
              ? rng.chance(0.7) ? 'Drive Away' : '+ ORC'
              : carType === 'new' && rng.chance(0.4)
                ? 'Excl. Govt. Charges'
                : 'Drive Away',
      beforePrice,
      subscriptionPrice,
      carType,
      status,
      itemType: model.itemType,
      stocknum,
      vin: rng.chance(model.itemType === 'caravan' ? 0.5 : 0.85) ? makeVin(rng, model.make, year) : null,
      nvic: isAu && model.itemType === 'car' && rng.chance(0.5) ? rng.chars('0123456789ABCDEFGHJKLMNPRSTUVWXYZ', 6) : null,
      certified,
      reserved,
      soldDate,
      reservable,
      preorder,
      showOnDealerWebsite,
      photosCount: photoCount,
      tag,
      customRank: rng.chance(0.25) ? 0 : rng.int(1, 1000),
      colour,
      seats: model.seats,
      doors: model.doors,
      engine: engine === 'Towed' ? null : engine,
      simpleFuel: fuel === 'None' ? null : fuel,
      simpleBody: model.body,
      simpleDrive: drive,
      simpleTransmission: transmission === 'None' ? null : transmission,
      description: describe({ site, location, name, model, variant, colour, km, carType, features }),
      categories: categoriesFor(model, variant, price, factor),
      features,
      primaryImageUrl,
      historyReportUrl,
      carsalesSellerIdentifier: isAu && model.itemType === 'car' && rng.chance(0.5) ? `SSE-AD-${rng.chars('0123456789', 8)}` : null,
      city: location.city,
      state: location.state,
      autograbAverageMarketPrice: autograbAverage,
      autograbStateAverageMarketPrice: autograbState,
      createdAt,
      updatedAt: soldDate ?? createdAt,
    });

    // Payment processors where the site takes reservations online.
    const checkout = site.config.checkout;
    if (checkout?.enabled && checkout.paymentProvider && price > 200 && !reserved && (scenario === 'not-reservable' || rng.chance(0.45))) {
      const key =
        checkout.paymentProvider === 'Stripe'
          ? dealership.stripePublishableKey
          : `${slugify(checkout.paymentProvider)}_pub_${rng.chars('abcdef0123456789', 24)}`;
      generated.processors.push({
        websiteId: site.id,
        carId: id,
        authorizationType: checkout.paymentProvider,
        authorizationKey: key,
        depositAmount: checkout.paymentProvider === 'Stripe' ? 500 : 1000,
      });
    }
  }
  return generated;
}

const DAY_MS = 86_400_000;

/**
 * Earlier prices of some demo cars, so a new user sees a price history on their pages: every 20th
 * car for sale of a website was reduced by 1,500 nine days ago, and every 60th had been raised by
 * 1,000 two weeks before that. The cars' prices stay as generated (the last change's new price).
 */
export function demoPriceChanges(carRows: readonly CarRow[], now: Date): (typeof carPriceChanges.$inferInsert)[] {
  const forSale = carRows.filter((car) => car.status === 'in_stock' && (car.price ?? 0) > 5_000);
  const changes: (typeof carPriceChanges.$inferInsert)[] = [];
  const bySite = new Map<number, CarRow[]>();
  for (const car of forSale) bySite.set(car.websiteId, [...(bySite.get(car.websiteId) ?? []), car]);
  for (const siteCars of bySite.values()) {
    siteCars.forEach((car, i) => {
      if (i % 20 !== 3) return;
      const price = car.price!;
      if (i % 60 === 3) changes.push({ websiteId: car.websiteId, carId: car.id, oldPrice: price + 500, newPrice: price + 1_500, changedAt: new Date(now.getTime() - 23 * DAY_MS) });
      changes.push({ websiteId: car.websiteId, carId: car.id, oldPrice: price + 1_500, newPrice: price, changedAt: new Date(now.getTime() - 9 * DAY_MS) });
    });
  }
  return changes;
}

