import 'server-only';
import { env } from '@/lib/env';
import { logger } from '@/lib/logger';
import type { Tenant } from '../tenancy/tenancy.types';
import { googleGeocoder } from './adapters/google-geocoding';
import { offlinePostcodeGeocoder } from './adapters/offline-postcodes';
import { sortByDistance, type LatLng } from './locations.distance';
import type { LocationSummary } from './locations.types';
import { checkPostcode, POSTCODE_MESSAGES, postcodeCountry, type PostcodeCountry } from './locations.validation';

export type { PostcodeCountry } from './locations.validation';
export type GeoPoint = LatLng;

/** A postcode geocoder: the point of a postcode, null when there is none. Throws when unavailable. */
export interface Geocoder {
  name: string;
  geocodePostcode(country: PostcodeCountry, postcode: string): Promise<GeoPoint | null>;
}

/**
 * Google when GOOGLE_GEOCODING_API_KEY is set, with the offline table as the fallback when Google
 * cannot be reached; the offline table alone otherwise.
 */
export function configuredGeocoder(apiKey = env().googleGeocodingApiKey): Geocoder {
  if (!apiKey) return offlinePostcodeGeocoder;
  const google = googleGeocoder(apiKey);
  return {
    name: 'google+offline',
    async geocodePostcode(country, postcode) {
      try {
        return await google.geocodePostcode(country, postcode);
      } catch (error) {
        logger.warn({ err: error, country }, 'google geocoding unavailable; using the offline postcode table');
        return offlinePostcodeGeocoder.geocodePostcode(country, postcode);
      }
    },
  };
}

export type NearestLocations =
  | { status: 'invalid'; postcode: string; message: string }
  | { status: 'not-found'; postcode: string; message: string }
  | { status: 'found'; postcode: string; results: { location: LocationSummary; km: number | null }[] };

/**
 * The website's locations nearest first from a visitor's postcode: the postcode validation
 * message when malformed, 'Invalid postcode' when it has no point.
 */
export async function nearestLocations(
  tenant: Tenant,
  locations: LocationSummary[],
  rawPostcode: string,
  geocoder: Geocoder = configuredGeocoder(),
): Promise<NearestLocations> {
  const country = postcodeCountry(tenant.config.locale);
  const checked = checkPostcode(country, rawPostcode);
  if (!checked.success) return { status: 'invalid', postcode: rawPostcode.trim().slice(0, 10), message: checked.message };
  const { postcode } = checked;
  const origin = await geocoder.geocodePostcode(country, postcode);
  if (!origin) return { status: 'not-found', postcode, message: POSTCODE_MESSAGES.notFound };
  const sorted = sortByDistance(locations, origin, (l) => (l.address.lat != null && l.address.long != null ? { lat: l.address.lat, lng: l.address.long } : null));
  return { status: 'found', postcode, results: sorted.map(({ item, km }) => ({ location: item, km })) };
}
