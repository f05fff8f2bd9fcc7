import { weeklyIntervals, WEEKDAY_NAMES, DISPLAY_ORDER } from '@/modules/locations/server';
import type { LocationSummary, SpecialHoursEntry } from '@/modules/locations/server';

/**
 * schema.org structured data for one location of a dealer (a LocalBusiness: AutoDealer for sales,
 * AutoRepair for service, AutoPartsStore for parts), with its weekly opening hours and its
 * special (holiday) hours as OpeningHoursSpecification. Pure and client-safe; render it with
 * <DealerJsonLd> (components/dealer-json-ld.tsx), which embeds it safely.
 */

type JsonLdLocation = Pick<
  LocationSummary,
  'name' | 'path' | 'locationType' | 'address' | 'phone' | 'openingHours' | 'reviews' | 'id'
>;

export type DealerJsonLdInput = {
  /** The website's canonical origin (siteOrigin). */
  origin: URL;
  /** The dealer's name, for the organisation the location belongs to. */
  websiteName: string;
  logoUrl?: string | null;
  location: JsonLdLocation;
  /** Special hours of this location (others are ignored). */
  specialHours?: readonly SpecialHoursEntry[];
};

const TYPES: Record<LocationSummary['locationType'], string | string[]> = {
  sales: 'AutoDealer',
  service: 'AutoRepair',
  parts: 'AutoPartsStore',
  'service-and-parts': ['AutoRepair', 'AutoPartsStore'],
};

/** Minutes after midnight → 'HH:MM' (the end of the day as 23:59, as schema.org expects). */
function clock(minutes: number): string {
  const m = Math.min(minutes, 1439);
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

type HoursSpec = { '@type': 'OpeningHoursSpecification'; dayOfWeek?: string[]; opens: string; closes: string; validFrom?: string; validThrough?: string };

/** Weekly hours: one specification per distinct opening interval, naming every day it applies to (Monday first). */
export function weeklyHoursSpecification(openingHours: LocationSummary['openingHours']): HoursSpec[] {
  const byInterval = new Map<string, HoursSpec>();
  for (const weekday of DISPLAY_ORDER) {
    for (const interval of weeklyIntervals(openingHours, weekday)) {
      const key = `${interval.open}-${interval.close}`;
      const spec = byInterval.get(key) ?? { '@type': 'OpeningHoursSpecification', dayOfWeek: [], opens: clock(interval.open), closes: clock(interval.close) };
      spec.dayOfWeek!.push(WEEKDAY_NAMES[weekday]);
      byInterval.set(key, spec);
    }
  }
  return [...byInterval.values()];
}

/** Special hours: a date's hours, or 00:00–00:00 for a closed date (Google's reading of 'closed'). */
export function specialHoursSpecification(entries: readonly SpecialHoursEntry[]): HoursSpec[] {
  return entries.map((entry) => {
    const open = entry.status === 'Open' && entry.startHour && entry.endHour;
    return {
      '@type': 'OpeningHoursSpecification',
      opens: open ? entry.startHour!.slice(0, 5) : '00:00',
      closes: open ? entry.endHour!.slice(0, 5) : '00:00',
      validFrom: entry.date,
      validThrough: entry.date,
    };
  });
}

export function dealerJsonLd({ origin, websiteName, logoUrl, location, specialHours = [] }: DealerJsonLdInput): Record<string, unknown> {
  const url = new URL(location.path, origin).toString();
  const { address } = location;
  const hours = [
    ...weeklyHoursSpecification(location.openingHours),
    ...specialHoursSpecification(specialHours.filter((entry) => entry.locationId === location.id)),
  ];
  return {
    '@context': 'https://schema.org',
    '@type': TYPES[location.locationType],
    '@id': `${url}#business`,
    name: location.name,
    url,
    ...(location.phone ? { telephone: location.phone } : {}),
    ...(logoUrl ? { image: new URL(logoUrl, origin).toString() } : {}),
    address: {
      '@type': 'PostalAddress',
      ...(address.street ? { streetAddress: address.street } : {}),
      ...(address.city ? { addressLocality: address.city } : {}),
      ...(address.state ? { addressRegion: address.state } : {}),
      ...(address.postcode ? { postalCode: address.postcode } : {}),
      addressCountry: address.country,
    },
    ...(address.lat != null && address.long != null
      ? { geo: { '@type': 'GeoCoordinates', latitude: address.lat, longitude: address.long } }
      : {}),
    ...(address.placeUrl ? { hasMap: address.placeUrl } : {}),
    ...(hours.length > 0 ? { openingHoursSpecification: hours } : {}),
    ...(location.reviews
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: location.reviews.averageRating,
            reviewCount: location.reviews.count,
            bestRating: 5,
          },
        }
      : {}),
    parentOrganization: { '@type': 'Organization', name: websiteName, url: origin.toString() },
  };
}

/**
 * JSON for a <script type="application/ld+json">: '<', '>', '&' and the JavaScript line separators
 * escaped, so no value (a location name such as '</script><script>…') can end the script element.
 */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
