import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { weeklyHours } from '@/modules/locations/locations.hours';
import { parseWebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { SiteFooter } from '@/modules/tenancy/components/site-footer';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { appleDirectionsUrl, googleDirectionsUrl, mapLinkUrl, MAPS_LOADER_TEXT } from '../locations.maps';
import { isMapsUrl } from '@/modules/tenancy/tenancy.links';
import type { LocationSummary } from '../locations.types';
import { ContactFormSlot } from './contact-form-slot';
import { InteractiveMap } from './interactive-map';
import { LocationCard } from './location-card';
import { LocationMap } from './location-map';

function tenant(config: object = {}): Tenant {
  return {
    id: 1,
    slug: 'harbour-city-motors',
    name: 'Harbour City Motors',
    template: 'default',
    phone: '(02) 5550 4100',
    logoUrl: null,
    url: 'https://www.harbourcity.example',
    city: 'Sydney',
    state: 'NSW',
    overrideCity: null,
    dealershipGroup: null,
    manufacturer: null,
    config: parseWebsiteConfig(config),
  };
}

function location(overrides: Partial<LocationSummary> = {}): LocationSummary {
  return {
    id: 11,
    dealershipId: 11,
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
    dealerLicenseNumber: 'MD041127',
    address: {
      street: '412 Church Street',
      city: 'Parramatta',
      state: 'NSW',
      postcode: '2150',
      country: 'AU',
      full: '412 Church Street, Parramatta NSW 2150',
      lat: -33.8061,
      long: 151.0036,
      placeUrl: null,
    },
    phone: '(02) 5550 4101',
    landlinePhone: null,
    mobile: null,
    social: {},
    timeZone: 'Australia/Sydney',
    openingHours: weeklyHours({ weekdays: ['08:30', '17:30'], saturday: ['08:30', '16:00'], sunday: null }),
    settings: {},
    reviews: { count: 1284, averageRating: 4.7 },
    ...overrides,
  };
}

// Monday 23 November 2026, 10:00 in Sydney.
const now = new Date('2026-11-22T23:00:00Z');

const card = (l: LocationSummary, config: object = {}) =>
  renderToStaticMarkup(<LocationCard tenant={tenant(config)} location={l} specialHours={[]} now={now} distanceKm={6.34} />);

describe('location card', () => {
  it('shows the address, a tel: link, the licence, reviews, open now and the hours with Today', () => {
    const html = card(location());
    expect(html).toContain('412 Church Street');
    expect(html).toContain('href="tel:0255504101"');
    expect(html).toContain('Dealer licence: <span class="font-semibold">MD041127</span>');
    expect(html).toContain('4.7 out of 5 from 1,284 reviews');
    expect(html).toContain('Open now · closes at 5:30 pm');
    expect(html).toMatch(/aria-current="date"[^>]*>.*Mon-Fri.*Today/);
    expect(html).toContain('6.3 km away');
    expect(html).toContain('View Holiday Hours');
    expect(html).toContain('href="/our-locations/parramatta"');
  });

  it('hides reviews below the minimum rating (the query gives null) and a missing licence', () => {
    const html = card(location({ reviews: null, dealerLicenseNumber: null }));
    expect(html).not.toContain('out of 5');
    expect(html).not.toContain('Dealer licence');
  });

  it('speaks miles and US spelling on en-US sites', () => {
    const html = card(location(), { locale: 'en-US', distanceUnit: 'mi' });
    expect(html).toContain('3.9 mi away');
    expect(html).toContain('Dealer license');
  });

  it("links weekend days to the contact-us page where configured ('Enquire Now')", () => {
    const html = card(location({ settings: { weekendEnquiryLink: true } }));
    expect(html.match(/href="\/contact-us\/harbour-city-mazda"[^>]*>Enquire Now</g)).toHaveLength(2);
  });
});

describe('maps', () => {
  it('gives direction links to Google Maps and Apple Maps that the link rules read as maps links', () => {
    const l = location();
    for (const url of [googleDirectionsUrl(l), appleDirectionsUrl(l), mapLinkUrl(l)]) expect(isMapsUrl(new URL(url))).toBe(true);
    expect(googleDirectionsUrl(l)).toBe('https://www.google.com/maps/dir/?api=1&destination=-33.8061%2C151.0036');
    expect(appleDirectionsUrl(l)).toBe('https://maps.apple.com/?daddr=-33.8061%2C151.0036&q=Harbour+City+Motors+Parramatta');
    // Without coordinates the address is the destination.
    expect(googleDirectionsUrl(location({ address: { ...l.address, lat: null, long: null } }))).toContain('destination=412+Church+Street');
  });

  it('keeps a location place URL only when it is https', () => {
    const l = location();
    expect(mapLinkUrl(location({ address: { ...l.address, placeUrl: 'https://maps.app.goo.gl/abc' } }))).toBe('https://maps.app.goo.gl/abc');
    expect(mapLinkUrl(location({ address: { ...l.address, placeUrl: 'javascript:alert(1)' } }))).toMatch(/^https:\/\/www\.google\.com\/maps\/search\//);
  });

  it('the static block has the address and plain direction anchors, and no interactive map without a key', () => {
    const html = renderToStaticMarkup(<LocationMap location={location()} mapsKey={null} />);
    expect(html).toContain('<address');
    expect(html).toMatch(/<a href="https:\/\/www\.google\.com\/maps\/dir\/[^"]*" class="[^"]*">Directions in Google Maps<\/a>/);
    expect(html).not.toContain('target=');
    expect(html).not.toContain('Show interactive map');
  });

  it('with a key the interactive map waits for the visitor, saying the loader is idle', () => {
    const html = renderToStaticMarkup(<LocationMap location={location()} mapsKey="KEY" />);
    expect(html).toContain('Show interactive map');
    expect(html).toContain(MAPS_LOADER_TEXT.idle);
    expect(html).not.toContain('maps.googleapis.com');
    expect(renderToStaticMarkup(<InteractiveMap apiKey="KEY" lat={1} lng={2} name="X" />)).toContain('Google Maps is on idle');
    expect(MAPS_LOADER_TEXT).toEqual({ idle: 'Google Maps is on idle', loading: 'Google Maps is loading', error: 'Google Maps is on error' });
  });
});

describe('contact form place and footer licences', () => {
  it('marks the place of the general contact form', () => {
    const html = renderToStaticMarkup(<ContactFormSlot phone="(02) 5550 4100" dealerName="Harbour City Motors" />);
    expect(html).toContain('id="contact-form"');
    expect(html).toContain('data-slot="general-contact-form"');
    expect(html).toContain('href="tel:0255504100"');
  });

  it('shows dealer licence numbers in the footer, named per dealership when there are several', () => {
    const one = renderToStaticMarkup(<SiteFooter tenant={tenant()} entries={[]} year={2026} licences={[{ dealershipName: 'A', number: 'MD1' }]} />);
    expect(one).toContain('Dealer licence MD1');
    const two = renderToStaticMarkup(
      <SiteFooter tenant={tenant()} entries={[]} year={2026} licences={[{ dealershipName: 'A', number: 'MD1' }, { dealershipName: 'B', number: 'MD2' }]} />,
    );
    expect(two).toContain('A: Dealer licence MD1 · B: Dealer licence MD2');
    expect(renderToStaticMarkup(<SiteFooter tenant={tenant()} entries={[]} year={2026} />)).not.toContain('licence');
  });
});
