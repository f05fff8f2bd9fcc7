import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { encodePostcodeTable, pointsFromGeonames } from '../../../scripts/build-postcodes';
import { parseWebsiteConfig } from '../tenancy/tenancy.config';
import type { Tenant } from '../tenancy/tenancy.types';
import { googleGeocoder, GeocodingUnavailableError } from './adapters/google-geocoding';
import { decodePostcodeTable, lookupPostcode, offlinePostcodeGeocoder } from './adapters/offline-postcodes';
import { POSTCODE_TABLES } from './adapters/postcodes.data';
import { EARTH_RADIUS_KM, haversineKm, sortByDistance } from './locations.distance';
import { configuredGeocoder, type Geocoder, nearestLocations } from './locations.geocoding';
import { checkPostcode, POSTCODE_MESSAGES, postcodeCountry } from './locations.validation';
import type { LocationSummary } from './locations.types';

// The GeoNames exports beside the project (see scripts/build-postcodes.ts).
const GEONAMES = path.resolve(process.cwd(), '..', 'shared', 'data', 'geonames');

describe('haversine distance', () => {
  it('uses an Earth radius of 6371 km', () => {
    expect(EARTH_RADIUS_KM).toBe(6371);
    // A quarter of a great circle.
    expect(haversineKm({ lat: 0, lng: 0 }, { lat: 0, lng: 90 })).toBeCloseTo((Math.PI / 2) * 6371, 6);
    expect(haversineKm({ lat: 90, lng: 0 }, { lat: -90, lng: 0 })).toBeCloseTo(Math.PI * 6371, 6);
  });

  it('Sydney GPO to Melbourne GPO is about 714 km; a point to itself is 0', () => {
    const sydney = { lat: -33.8688, lng: 151.2093 };
    expect(haversineKm(sydney, { lat: -37.8136, lng: 144.9631 })).toBeCloseTo(713.4, 0);
    expect(haversineKm(sydney, sydney)).toBe(0);
  });

  it('sorts nearest first, ties in given order, items without coordinates last', () => {
    const items = [
      { name: 'nowhere', p: null },
      { name: 'far', p: { lat: -37.81, lng: 144.96 } },
      { name: 'near', p: { lat: -33.8, lng: 151.0 } },
      { name: 'near-twin', p: { lat: -33.8, lng: 151.0 } },
    ];
    const sorted = sortByDistance(items, { lat: -33.87, lng: 151.2 }, (i) => i.p);
    expect(sorted.map((s) => s.item.name)).toEqual(['near', 'near-twin', 'far', 'nowhere']);
    expect(sorted[3].km).toBeNull();
  });
});

describe('postcode validation', () => {
  it.each([
    ['2000', true],
    [' 2000 ', true],
    ['0200', true],
    ['200', false],
    ['20000', false],
    ['2OOO', false],
    ['', false],
    ['<script>', false],
  ])('AU %j valid: %s', (value, valid) => {
    const result = checkPostcode('AU', value);
    expect(result.success).toBe(valid);
    if (!result.success) expect(result.message).toBe('Invalid postcode. Please enter a 4-digit number.');
  });

  it('US ZIP codes have five digits', () => {
    expect(checkPostcode('US', ' 75201 ')).toEqual({ success: true, postcode: '75201' });
    expect(checkPostcode('US', '7520')).toEqual({ success: false, message: POSTCODE_MESSAGES.malformedZip });
  });

  it('takes the country from the locale', () => {
    expect(postcodeCountry('en-AU')).toBe('AU');
    expect(postcodeCountry('en-NZ')).toBe('NZ');
    expect(postcodeCountry('en-US')).toBe('US');
  });
});

describe('offline postcode table', () => {
  it('is what the build script makes from the GeoNames files (regenerate with scripts/build-postcodes.ts)', () => {
    for (const country of ['AU', 'NZ', 'US'] as const) {
      const points = pointsFromGeonames(readFileSync(path.join(GEONAMES, `${country}.txt`), 'utf8'), country);
      expect(encodePostcodeTable(points)).toBe(POSTCODE_TABLES[country]);
    }
  });

  it('decodes what it encodes, to 0.001°, keeping leading zeros', () => {
    const points = [
      { postcode: '0200', lat: -35.2777, lng: 149.1189 },
      { postcode: '0800', lat: -12.4634, lng: 130.8456 },
      { postcode: '2000', lat: -33.8688, lng: 151.2093 },
    ];
    const table = decodePostcodeTable(encodePostcodeTable(points));
    expect([...table.codes]).toEqual([200, 800, 2000]);
    expect(lookupPostcode(table, '2000')).toEqual({ lat: -33.869, lng: 151.209 });
    expect(lookupPostcode(table, '0200')).toEqual({ lat: -35.278, lng: 149.119 });
    expect(lookupPostcode(table, '0800')).toEqual({ lat: -12.463, lng: 130.846 });
    expect(lookupPostcode(table, '1999')).toBeNull();
    expect(lookupPostcode(table, '9999')).toBeNull();
    expect(lookupPostcode(table, '0100')).toBeNull();
    expect(decodePostcodeTable('').codes).toHaveLength(0);
  });

  it('gives one point per postcode: the mean of its most accurate rows', () => {
    const text = ['AU\t2000\tA\tNSW\tNSW\t\t\t\t\t-33.0\t151.0\t4', 'AU\t2000\tB\tNSW\tNSW\t\t\t\t\t-34.0\t152.0\t4', 'AU\t2000\tC\tNSW\tNSW\t\t\t\t\t-40.0\t140.0\t1', 'NZ\t1010\tX\t\t\t\t\t\t\t-36.8\t174.7\t4', 'AU\tbad\tD\t\t\t\t\t\t\t1\t1\t4'].join('\n');
    expect(pointsFromGeonames(text, 'AU')).toEqual([{ postcode: '2000', lat: -33.5, lng: 151.5 }]);
  });

  it.each([
    ['AU', '2000', -33.87, 151.2],
    ['AU', '0200', -35.28, 149.12],
    ['AU', '6000', -31.95, 115.86],
    ['NZ', '1010', -36.85, 174.76],
    ['US', '75201', 32.79, -96.8],
    ['US', '10001', 40.75, -74.0],
  ] as const)('%s %s is near %f, %f', async (country, postcode, lat, lng) => {
    const point = await offlinePostcodeGeocoder.geocodePostcode(country, postcode);
    expect(point).not.toBeNull();
    expect(haversineKm(point!, { lat, lng })).toBeLessThan(5);
  });

  it('has no point for postcodes that do not exist', async () => {
    expect(await offlinePostcodeGeocoder.geocodePostcode('AU', '9999')).toBeNull();
    expect(await offlinePostcodeGeocoder.geocodePostcode('US', '00000')).toBeNull();
    // An Australian postcode is not a New Zealand one.
    expect(await offlinePostcodeGeocoder.geocodePostcode('NZ', '2000')).toBeNull();
    // Fixed width: '200' is not '0200', and a 4-digit code is no US ZIP code.
    expect(await offlinePostcodeGeocoder.geocodePostcode('AU', '200')).toBeNull();
    expect(await offlinePostcodeGeocoder.geocodePostcode('US', '1001')).toBeNull();
  });
});

describe('Google geocoding adapter', () => {
  const answer = (body: unknown, status = 200) => vi.fn(async () => new Response(JSON.stringify(body), { status }));

  it('asks by postal_code and country with the key and reads results[0].geometry.location', async () => {
    const fetch = answer({ status: 'OK', results: [{ geometry: { location: { lat: -33.87, lng: 151.21 } } }, { geometry: { location: { lat: 0, lng: 0 } } }] });
    const point = await googleGeocoder('KEY', { fetch }).geocodePostcode('AU', '2000');
    expect(point).toEqual({ lat: -33.87, lng: 151.21 });
    const url = new URL(String((fetch.mock.calls[0] as unknown[])[0]));
    expect(url.searchParams.get('components')).toBe('postal_code:2000|country:AU');
    expect(url.searchParams.get('key')).toBe('KEY');
  });

  it('answers null for ZERO_RESULTS', async () => {
    expect(await googleGeocoder('KEY', { fetch: answer({ status: 'ZERO_RESULTS', results: [] }) }).geocodePostcode('AU', '9999')).toBeNull();
  });

  it.each([
    ['a denied request', answer({ status: 'REQUEST_DENIED', results: [] })],
    ['an HTTP error', answer({}, 500)],
    ['a body of another shape', answer({ status: 'OK', results: [{ geometry: {} }] })],
    ['a network failure', vi.fn(async () => { throw new TypeError('fetch failed'); })],
  ])('reports %s as unavailable', async (_, fetch) => {
    await expect(googleGeocoder('KEY', { fetch }).geocodePostcode('AU', '2000')).rejects.toBeInstanceOf(GeocodingUnavailableError);
  });

  it('is used only with a key', () => {
    expect(configuredGeocoder('').name).toBe('offline');
    expect(configuredGeocoder(undefined).name).toBe('offline');
    expect(configuredGeocoder('KEY').name).toBe('google+offline');
  });
});

describe('nearest locations by postcode', () => {
  const tenant = (locale: 'en-AU' | 'en-US') => ({ id: 1, config: parseWebsiteConfig({ locale }) }) as Tenant;
  const location = (id: number, lat: number | null, long: number | null) =>
    ({ id, name: `L${id}`, address: { lat, long } }) as unknown as LocationSummary;
  const parramatta = location(1, -33.8061, 151.0036);
  const artarmon = location(2, -33.8112, 151.1889);
  const unknown = location(3, null, null);

  it('sorts by distance from the postcode, nearest first', async () => {
    const result = await nearestLocations(tenant('en-AU'), [parramatta, unknown, artarmon], '2000', offlinePostcodeGeocoder);
    expect(result.status).toBe('found');
    if (result.status !== 'found') return;
    expect(result.results.map((r) => r.location.id)).toEqual([2, 1, 3]);
    expect(result.results[0].km).toBeGreaterThan(5);
    expect(result.results[0].km).toBeLessThan(9);
  });

  it("answers 'Invalid postcode' when the postcode has no point", async () => {
    expect(await nearestLocations(tenant('en-AU'), [parramatta], '9999', offlinePostcodeGeocoder)).toEqual({
      status: 'not-found',
      postcode: '9999',
      message: 'Invalid postcode',
    });
  });

  it('answers the validation message when the postcode is malformed, without geocoding', async () => {
    const geocoder: Geocoder = { name: 'spy', geocodePostcode: vi.fn(async () => null) };
    const result = await nearestLocations(tenant('en-AU'), [parramatta], '20o0', geocoder);
    expect(result).toMatchObject({ status: 'invalid', message: 'Invalid postcode. Please enter a 4-digit number.' });
    expect(geocoder.geocodePostcode).not.toHaveBeenCalled();
  });

  it('geocodes in the website country (US ZIP codes on en-US sites)', async () => {
    const dallas = location(9, 32.78, -96.8);
    const result = await nearestLocations(tenant('en-US'), [dallas], '75201', offlinePostcodeGeocoder);
    expect(result.status).toBe('found');
    expect((await nearestLocations(tenant('en-US'), [dallas], '2000', offlinePostcodeGeocoder)).status).toBe('invalid');
  });
});
