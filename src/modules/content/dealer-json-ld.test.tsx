import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { LocationSummary } from '@/modules/locations/server';
import type { OpeningHoursEntry } from '@/modules/locations/locations.types';
import { DealerJsonLd } from './components/dealer-json-ld';
import { dealerJsonLd, jsonLdText, weeklyHoursSpecification } from './dealer-json-ld';

const weekday = (day: number, open: string | null, close: string | null): OpeningHoursEntry => ({
  weekday: day,
  status: open ? 'Open' : 'Closed',
  open,
  close,
});
const HOURS = [1, 2, 3, 4, 5].map((d) => weekday(d, '08:30', '17:30')).concat(weekday(6, '09:00', '16:00'), weekday(0, null, null));

function location(overrides: Partial<LocationSummary> = {}): LocationSummary {
  return {
    id: 7,
    dealershipId: 1,
    dealershipSlug: 'harbour-city-mazda',
    dealershipName: 'Harbour City Mazda',
    name: 'Harbour City Motors Parramatta',
    slug: 'parramatta',
    path: '/our-locations/parramatta',
    contactPath: '/contact-us/harbour-city-mazda',
    position: 0,
    primary: true,
    locationType: 'sales',
    locationSubtypes: [],
    dealerLicenseNumber: 'MD 12345',
    address: {
      street: '12 Church Street',
      city: 'Parramatta',
      state: 'NSW',
      postcode: '2150',
      country: 'AU',
      full: '12 Church Street, Parramatta NSW 2150',
      lat: -33.815,
      long: 151.001,
      placeUrl: 'https://maps.google.com/?cid=1',
    },
    phone: '(02) 9555 0100',
    landlinePhone: null,
    mobile: null,
    social: {},
    timeZone: 'Australia/Sydney',
    openingHours: HOURS,
    settings: {},
    reviews: { count: 212, averageRating: 4.6 },
    ...overrides,
  };
}

const origin = new URL('https://harbour-city-motors.example');

describe('dealer JSON-LD', () => {
  it('describes a sales location as an AutoDealer with address, geo, phone, rating and its canonical URL', () => {
    const data = dealerJsonLd({ origin, websiteName: 'Harbour City Motors', logoUrl: '/media/logos/x.svg', location: location() });
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'AutoDealer',
      name: 'Harbour City Motors Parramatta',
      url: 'https://harbour-city-motors.example/our-locations/parramatta',
      telephone: '(02) 9555 0100',
      image: 'https://harbour-city-motors.example/media/logos/x.svg',
      address: { '@type': 'PostalAddress', streetAddress: '12 Church Street', addressLocality: 'Parramatta', addressRegion: 'NSW', postalCode: '2150', addressCountry: 'AU' },
      geo: { '@type': 'GeoCoordinates', latitude: -33.815, longitude: 151.001 },
      aggregateRating: { ratingValue: 4.6, reviewCount: 212 },
    });
  });

  it('groups the weekly hours by interval, Monday first, leaving closed days out', () => {
    expect(weeklyHoursSpecification(HOURS)).toEqual([
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], opens: '08:30', closes: '17:30' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Saturday'], opens: '09:00', closes: '16:00' },
    ]);
    // A split day gives two specifications; a close at 24:00 reads 23:59.
    const split = weeklyHoursSpecification([weekday(6, '09:00', '12:00'), { weekday: 6, status: 'Open', open: '13:00', close: '24:00' }]);
    expect(split.map((s) => [s.opens, s.closes])).toEqual([['09:00', '12:00'], ['13:00', '23:59']]);
    expect(weeklyHoursSpecification([])).toEqual([]);
  });

  it('adds this location’s special hours by date: open hours, or 00:00-00:00 when closed', () => {
    const data = dealerJsonLd({
      origin,
      websiteName: 'Harbour City Motors',
      location: location(),
      specialHours: [
        { date: '2026-12-25', status: 'Closed', locationId: 7, startHour: null, endHour: null, name: 'Christmas Day' },
        { date: '2026-12-24', status: 'Open', locationId: 7, startHour: '09:00', endHour: '13:00', name: null },
        { date: '2026-12-26', status: 'Closed', locationId: 99, startHour: null, endHour: null, name: 'another location' },
      ],
    });
    const specs = data.openingHoursSpecification as Array<Record<string, unknown>>;
    expect(specs.slice(2)).toEqual([
      { '@type': 'OpeningHoursSpecification', opens: '00:00', closes: '00:00', validFrom: '2026-12-25', validThrough: '2026-12-25' },
      { '@type': 'OpeningHoursSpecification', opens: '09:00', closes: '13:00', validFrom: '2026-12-24', validThrough: '2026-12-24' },
    ]);
  });

  it('types service and parts locations, and leaves out what a location does not have', () => {
    const service = dealerJsonLd({ origin, websiteName: 'X', location: location({ locationType: 'service', reviews: null, phone: '', openingHours: [] }) });
    expect(service['@type']).toBe('AutoRepair');
    expect(service).not.toHaveProperty('aggregateRating');
    expect(service).not.toHaveProperty('telephone');
    expect(service).not.toHaveProperty('openingHoursSpecification');
    const noGeo = dealerJsonLd({ origin, websiteName: 'X', location: location({ locationType: 'service-and-parts', address: { ...location().address, lat: null } }) });
    expect(noGeo['@type']).toEqual(['AutoRepair', 'AutoPartsStore']);
    expect(noGeo).not.toHaveProperty('geo');
  });

  it('renders a script that a hostile name cannot break out of, and that parses back to the same data', () => {
    const hostile = location({ name: '</script><script>alert(1)</script> & <!-- \u2028' });
    const html = renderToStaticMarkup(
      <DealerJsonLd tenant={{ name: 'Harbour City Motors', url: 'https://harbour-city-motors.example', logoUrl: null }} host="harbour-city-motors.localhost" location={hostile} />,
    );
    expect(html.startsWith('<script type="application/ld+json">')).toBe(true);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<!--');
    const json = html.slice('<script type="application/ld+json">'.length, -'</script>'.length);
    expect(JSON.parse(json).name).toBe(hostile.name);
    expect(jsonLdText({ a: '<>&' })).toBe('{"a":"\\u003c\\u003e\\u0026"}');
  });
});
