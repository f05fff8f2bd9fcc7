import { odometerValue } from '@/lib/format';
import { absoluteUrl, cleanLine, cleanText, csvRecord } from './feeds.text';
import { FEED_MAX_IMAGES, type FeedCar, type FeedContext } from './feeds.types';

/**
 * Meta's automotive inventory ads vehicle catalogue as CSV (Marketing API, "Auto Ads reference",
 * automotive inventory feed fields; decision 038). Nested fields are flattened columns in Meta's
 * JSON-path notation (mileage.value, image[0].url, address.city), which its CSV guidelines accept.
 * Enum values are Meta's published ones (they are case-insensitive). Pure.
 */

export const META_IMAGE_COLUMNS = Array.from({ length: FEED_MAX_IMAGES }, (_, i) => `image[${i}].url`);

export const META_COLUMNS = [
  'vehicle_id',
  'title',
  'description',
  'url',
  'make',
  'model',
  'year',
  'trim',
  'mileage.value',
  'mileage.unit',
  ...META_IMAGE_COLUMNS,
  'price',
  'state_of_vehicle',
  'vehicle_type',
  'body_style',
  'fuel_type',
  'transmission',
  'drivetrain',
  'exterior_color',
  'vin',
  'availability',
  'date_first_on_lot',
  'dealer_id',
  'dealer_name',
  'dealer_phone',
  'address.addr1',
  'address.city',
  'address.region',
  'address.postal_code',
  'address.country',
  'latitude',
  'longitude',
] as const;
export type MetaColumn = (typeof META_COLUMNS)[number];

const AVAILABILITY = { in_stock: 'AVAILABLE', coming_soon: 'PENDING', sold: 'NOT_AVAILABLE' } as const;
const VEHICLE_TYPE = { car: 'CAR_TRUCK', truck: 'CAR_TRUCK', motorcycle: 'MOTORCYCLE', caravan: 'TRAILER', campervan: 'RV_CAMPER' } as const;

/** Our body words (SPEC simple_body) to Meta's body_style; anything else OTHER. */
export function metaBodyStyle(body: string | null): string {
  const word = (body ?? '').toLowerCase();
  if (!word) return 'OTHER';
  if (/ute|pick ?up/.test(word)) return 'PICKUP';
  if (/cab ?chassis|truck/.test(word)) return 'TRUCK';
  if (/people mover|minivan/.test(word)) return 'MINIVAN';
  if (/convertible|cabriolet/.test(word)) return 'CONVERTIBLE';
  if (/hatch/.test(word)) return 'HATCHBACK';
  if (/sedan/.test(word)) return 'SEDAN';
  if (/wagon/.test(word)) return 'WAGON';
  if (/coupe/.test(word)) return 'COUPE';
  if (/suv/.test(word)) return 'SUV';
  if (/crossover/.test(word)) return 'CROSSOVER';
  if (/roadster/.test(word)) return 'ROADSTER';
  if (/bus/.test(word)) return 'MINIBUS';
  if (/van/.test(word)) return 'VAN';
  return 'OTHER';
}

export function metaFuelType(fuel: string | null): string {
  const word = (fuel ?? '').toLowerCase();
  if (!word) return '';
  if (/plug/.test(word)) return 'PLUGIN_HYBRID';
  if (/hybrid/.test(word)) return 'HYBRID';
  if (/electric/.test(word)) return 'ELECTRIC';
  if (/diesel/.test(word)) return 'DIESEL';
  if (/petrol|unleaded/.test(word)) return 'PETROL';
  if (/gasoline|gas\b/.test(word)) return 'GASOLINE';
  if (/flex/.test(word)) return 'FLEX';
  return 'OTHER';
}

export function metaTransmission(transmission: string | null): string {
  const word = (transmission ?? '').toLowerCase();
  if (!word) return '';
  // 'Automated Manual' shifts itself: Meta has no third word for it.
  if (/auto|cvt|dct|dual clutch/.test(word)) return 'AUTOMATIC';
  if (/manual/.test(word)) return 'MANUAL';
  return 'OTHER';
}

export function metaDrivetrain(drive: string | null): string {
  const word = (drive ?? '').toLowerCase();
  if (!word) return '';
  if (/all wheel|awd/.test(word)) return 'AWD';
  if (/four wheel|4wd|4x4/.test(word)) return 'FOUR_WD';
  if (/front/.test(word)) return 'FWD';
  if (/rear/.test(word)) return 'RWD';
  if (/two wheel|2wd|4x2/.test(word)) return 'TWO_WD';
  return 'OTHER';
}

/** new → NEW, certified used → CPO, used and demo → USED (Meta has no demonstrator state). */
export function metaStateOfVehicle(car: Pick<FeedCar, 'carType' | 'certified'>): string {
  if (car.carType === 'new') return 'NEW';
  return car.certified ? 'CPO' : 'USED';
}

export function feedTitle(car: Pick<FeedCar, 'name' | 'year' | 'make' | 'model' | 'badge'>, maxLength: number): string {
  return cleanLine(car.name, maxLength) || cleanLine([car.year, car.make, car.model, car.badge].filter(Boolean).join(' '), maxLength);
}

export function feedTrim(car: Pick<FeedCar, 'badge' | 'series'>): string {
  return cleanLine([car.badge, car.series].filter(Boolean).join(' '), 100);
}

/** The header line of the CSV. */
export function metaHeader(): string {
  return csvRecord(META_COLUMNS);
}

/** The values of one car, by column. */
export function metaValues(car: FeedCar, context: FeedContext): Record<MetaColumn, string> {
  const { config, origin } = context;
  const dealer = context.dealerFor(car);
  const title = feedTitle(car, 500);
  const images = car.images.map((url) => absoluteUrl(origin, url)).filter((url): url is string => url !== null);
  const values = {
    vehicle_id: String(car.id),
    title,
    description: cleanText(car.description, 5000) || title,
    url: context.carUrl(car.slug),
    make: cleanLine(car.make, 100),
    model: cleanLine(car.model, 100),
    year: String(car.year),
    trim: feedTrim(car),
    'mileage.value': String(odometerValue(config, Math.max(0, car.km))),
    'mileage.unit': config.distanceUnit === 'mi' ? 'MI' : 'KM',
    price: `${car.price} ${config.currency}`,
    state_of_vehicle: metaStateOfVehicle(car),
    vehicle_type: VEHICLE_TYPE[car.itemType],
    body_style: metaBodyStyle(car.simpleBody),
    fuel_type: metaFuelType(car.simpleFuel),
    transmission: metaTransmission(car.simpleTransmission),
    drivetrain: metaDrivetrain(car.simpleDrive),
    exterior_color: cleanLine(car.colour, 100),
    vin: cleanLine(car.vin, 17),
    availability: AVAILABILITY[car.status],
    date_first_on_lot: car.createdAt.toISOString().slice(0, 10),
    dealer_id: cleanLine(dealer?.dealerId, 100),
    dealer_name: cleanLine(dealer?.dealerName ?? context.siteName, 100),
    dealer_phone: cleanLine(dealer?.phone, 50),
    'address.addr1': cleanLine(dealer?.street, 200),
    'address.city': cleanLine(dealer?.city, 100),
    'address.region': cleanLine(dealer?.state, 100),
    'address.postal_code': cleanLine(dealer?.postcode, 20),
    'address.country': cleanLine(dealer?.country, 2),
    latitude: dealer?.lat != null ? String(dealer.lat) : '',
    longitude: dealer?.long != null ? String(dealer.long) : '',
  } as Record<MetaColumn, string>;
  META_IMAGE_COLUMNS.forEach((column, i) => {
    values[column] = images[i] ?? '';
  });
  return values;
}

/** One car as a CSV record, columns in META_COLUMNS order. */
export function metaRecord(car: FeedCar, context: FeedContext): string {
  const values = metaValues(car, context);
  return csvRecord(META_COLUMNS.map((column) => values[column]));
}
