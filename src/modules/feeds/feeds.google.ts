import { odometerValue } from '@/lib/format';
import { feedTitle, feedTrim } from './feeds.meta';
import { absoluteUrl, cleanLine, cleanText, escapeXml } from './feeds.text';
import type { FeedCar, FeedContext } from './feeds.types';

/**
 * Google's vehicle ads feed (Merchant Center "vehicle ads" product data specification; decision
 * 038) as an RSS 2.0 file with the g: namespace, the XML form Merchant Center fetches on a
 * schedule. Pure: the rows come from feeds.queries.ts.
 */

export const GOOGLE_NAMESPACE = 'http://base.google.com/ns/1.0';
/** Google's product taxonomy: Vehicles & Parts > Vehicles > Motor Vehicles > Cars, Trucks & Vans. */
export const GOOGLE_CARS_CATEGORY = '916';

/** Google's engine values. */
export function googleEngine(fuel: string | null): string {
  const word = (fuel ?? '').toLowerCase();
  if (!word) return '';
  if (/plug/.test(word)) return 'plug-in_hybrid';
  if (/hybrid/.test(word)) return 'hybrid';
  if (/electric/.test(word)) return 'electric';
  if (/diesel/.test(word)) return 'diesel';
  if (/petrol|unleaded|gasoline/.test(word)) return 'gasoline';
  if (/lpg/.test(word)) return 'lpg';
  return 'other';
}

/** Google's body style words; anything else is left out (the attribute is optional). */
export function googleBodyStyle(body: string | null): string {
  const word = (body ?? '').toLowerCase();
  if (/ute|pick ?up|truck|cab ?chassis/.test(word)) return 'truck';
  if (/people mover|minivan/.test(word)) return 'minivan';
  if (/convertible|cabriolet/.test(word)) return 'convertible';
  if (/hatch/.test(word)) return 'hatchback';
  if (/sedan/.test(word)) return 'sedan';
  if (/wagon/.test(word)) return 'wagon';
  if (/coupe/.test(word)) return 'coupe';
  if (/suv/.test(word)) return 'suv';
  if (/crossover/.test(word)) return 'crossover';
  if (/van/.test(word)) return 'van';
  return '';
}

export function googleTransmission(transmission: string | null): string {
  const word = (transmission ?? '').toLowerCase();
  if (/auto|cvt|dct|dual clutch/.test(word)) return 'automatic';
  if (/manual/.test(word)) return 'manual';
  return '';
}

export function googleDrivetrain(drive: string | null): string {
  const word = (drive ?? '').toLowerCase();
  if (/all wheel|awd/.test(word)) return 'AWD';
  if (/four wheel|4wd|4x4/.test(word)) return '4WD';
  if (/front/.test(word)) return 'FWD';
  if (/rear/.test(word)) return 'RWD';
  return '';
}

const AVAILABILITY = { in_stock: 'in_stock', coming_soon: 'preorder', sold: 'out_of_stock' } as const;

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The opening of the file: the RSS channel with the website's name and address. */
export function googleHead(context: FeedContext): string {
  const name = escapeXml(cleanLine(context.siteName, 150));
  return (
    `${XML_DECLARATION}<rss version="2.0" xmlns:g="${GOOGLE_NAMESPACE}">\n<channel>\n` +
    `<title>${name} vehicles</title>\n<link>${escapeXml(context.origin.origin)}/</link>\n` +
    `<description>Vehicles listed by ${name}</description>\n`
  );
}

export const GOOGLE_TAIL = '</channel>\n</rss>\n';

/** The attributes of one car, in the order they are written, empty values dropped. */
export function googleAttributes(car: FeedCar, context: FeedContext): Array<[string, string | Array<[string, string]>]> {
  const { config, origin } = context;
  const dealer = context.dealerFor(car);
  const title = feedTitle(car, 150);
  const images = car.images.map((url) => absoluteUrl(origin, url)).filter((url): url is string => url !== null);
  const storeCode = dealer ? cleanLine(config.feeds.google.storeCodes[dealer.locationSlug] ?? dealer.locationSlug, 64) : '';
  const address = dealer ? cleanLine([dealer.street, dealer.city, [dealer.state, dealer.postcode].filter(Boolean).join(' '), dealer.country].filter(Boolean).join(', '), 300) : '';
  const miles = config.distanceUnit === 'mi';
  const attributes: Array<[string, string | Array<[string, string]>]> = [
    ['id', String(car.id)],
    ['title', title],
    ['description', cleanText(car.description, 5000) || title],
    ['link', context.carUrl(car.slug)],
    ['image_link', images[0] ?? ''],
    ...images.slice(1).map((url): [string, string] => ['additional_image_link', url]),
    ['price', `${car.price} ${config.currency}`],
    ['condition', car.carType === 'new' ? 'new' : 'used'],
    ['certified_pre-owned', car.carType === 'new' ? '' : car.certified ? 'yes' : 'no'],
    ['availability', AVAILABILITY[car.status]],
    ['google_product_category', GOOGLE_CARS_CATEGORY],
    ['brand', cleanLine(car.make, 70)],
    ['model', cleanLine(car.model, 70)],
    ['year', String(car.year)],
    ['trim', feedTrim(car)],
    ['mileage', `${odometerValue(config, Math.max(0, car.km))} ${miles ? 'miles' : 'km'}`],
    ['vin', cleanLine(car.vin, 17)],
    ['color', cleanLine(car.colour, 100)],
    ['body_style', googleBodyStyle(car.simpleBody)],
    ['engine', googleEngine(car.simpleFuel)],
    ['transmission', googleTransmission(car.simpleTransmission)],
    ['drivetrain', googleDrivetrain(car.simpleDrive)],
    ['store_code', storeCode],
    [
      'vehicle_fulfillment',
      storeCode
        ? [
            ['option', 'in_store'],
            ['store_code', storeCode],
          ]
        : [],
    ],
    ['dealership_name', cleanLine(dealer?.dealerName ?? context.siteName, 150)],
    ['dealership_address', address],
  ];
  return attributes.filter(([, value]) => value.length > 0);
}

/** One car as an <item>. */
export function googleItem(car: FeedCar, context: FeedContext): string {
  let xml = '<item>';
  for (const [name, value] of googleAttributes(car, context)) {
    if (typeof value === 'string') xml += `<g:${name}>${escapeXml(value)}</g:${name}>`;
    else xml += `<g:${name}>${value.map(([child, text]) => `<g:${child}>${escapeXml(text)}</g:${child}>`).join('')}</g:${name}>`;
  }
  return `${xml}</item>\n`;
}
