import 'server-only';
import type { Geocoder, GeoPoint, PostcodeCountry } from '../locations.geocoding';
import { POSTCODE_TABLES } from './postcodes.data';

/**
 * The default geocoder: postcode centroids shipped with the project (built from GeoNames by
 * scripts/build-postcodes.ts), no network and no key. Each country's table is decoded on first use
 * (AU 3.3k, NZ 1.7k, US 41k postcodes) and searched by binary search.
 */

const WIDTH: Record<PostcodeCountry, number> = { AU: 4, NZ: 4, US: 5 };

/** A decoded table: postcodes ascending with their points in thousandths of a degree. */
export type PostcodeTable = { codes: Int32Array; lat: Int32Array; lng: Int32Array };

/**
 * Inverse of encodePostcodeTable in scripts/build-postcodes.ts, read character by character into
 * typed arrays (no intermediate strings: the US table decodes in a few milliseconds).
 */
export function decodePostcodeTable(encoded: string): PostcodeTable {
  let commas = 0;
  for (let i = 0; i < encoded.length; i++) if (encoded.charCodeAt(i) === 44) commas++;
  const count = encoded ? Math.floor((commas + 1) / 3) : 0;
  const columns = [new Int32Array(count), new Int32Array(count), new Int32Array(count)];
  const running = [0, 0, 0];
  let index = 0;
  let value = 0;
  let negative = false;
  for (let i = 0; i <= encoded.length && count > 0; i++) {
    const code = i < encoded.length ? encoded.charCodeAt(i) : 44;
    if (code === 44) {
      const column = index % 3;
      running[column] += negative ? -value : value;
      columns[column][Math.floor(index / 3)] = running[column];
      index++;
      value = 0;
      negative = false;
    } else if (code === 45) {
      negative = true;
    } else {
      value = value * 36 + (code <= 57 ? code - 48 : code - 87);
    }
  }
  return { codes: columns[0], lat: columns[1], lng: columns[2] };
}

/** The point of a postcode by binary search; null when the table has none. */
export function lookupPostcode(table: PostcodeTable, postcode: string): GeoPoint | null {
  if (!/^\d{1,9}$/.test(postcode)) return null;
  const target = Number(postcode);
  let low = 0;
  let high = table.codes.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const code = table.codes[middle];
    if (code === target) return { lat: table.lat[middle] / 1000, lng: table.lng[middle] / 1000 };
    if (code < target) low = middle + 1;
    else high = middle - 1;
  }
  return null;
}

const decoded = new Map<PostcodeCountry, PostcodeTable>();

function tableFor(country: PostcodeCountry): PostcodeTable {
  let table = decoded.get(country);
  if (!table) {
    table = decodePostcodeTable(POSTCODE_TABLES[country]);
    decoded.set(country, table);
  }
  return table;
}

export const offlinePostcodeGeocoder: Geocoder = {
  name: 'offline',
  async geocodePostcode(country, postcode) {
    // Postcodes have a fixed width: '200' is not '0200'.
    return postcode.length === WIDTH[country] ? lookupPostcode(tableFor(country), postcode) : null;
  },
};
