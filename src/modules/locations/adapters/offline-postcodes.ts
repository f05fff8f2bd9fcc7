import 'server-only';
import type { Geocoder, GeoPoint, PostcodeCountry } from '../locations.geocoding';
import { POSTCODE_TABLES } from './postcodes.data';

/**
 * The default geocoder: postcode centroids shipped with the project (built from GeoNames by
 * scripts/build-postcodes.ts), no network and no key. Each country's table is decoded on first use
 * into a Map (AU 3.3k, NZ 1.7k, US 41k postcodes).
 */

const WIDTH: Record<PostcodeCountry, number> = { AU: 4, NZ: 4, US: 5 };

/** Inverse of encodePostcodeTable in scripts/build-postcodes.ts. */
export function decodePostcodeTable(encoded: string, width: number): Map<string, GeoPoint> {
  const table = new Map<string, GeoPoint>();
  if (!encoded) return table;
  const values = encoded.split(',');
  let postcode = 0;
  let lat = 0;
  let lng = 0;
  for (let i = 0; i + 2 < values.length; i += 3) {
    postcode += parseInt(values[i], 36);
    lat += parseInt(values[i + 1], 36);
    lng += parseInt(values[i + 2], 36);
    table.set(String(postcode).padStart(width, '0'), { lat: lat / 1000, lng: lng / 1000 });
  }
  return table;
}

const decoded = new Map<PostcodeCountry, Map<string, GeoPoint>>();

function tableFor(country: PostcodeCountry): Map<string, GeoPoint> {
  let table = decoded.get(country);
  if (!table) {
    table = decodePostcodeTable(POSTCODE_TABLES[country], WIDTH[country]);
    decoded.set(country, table);
  }
  return table;
}

export const offlinePostcodeGeocoder: Geocoder = {
  name: 'offline',
  async geocodePostcode(country, postcode) {
    return tableFor(country).get(postcode) ?? null;
  },
};
