import { describe, expect, it } from 'vitest';
import { parseWebsiteConfig, type WebsiteConfigInput } from '@/modules/tenancy/tenancy.config';
import { carTypeFromSearchSlug, conditionLabel, DAY_MS, isVisible, matchesDefaultFilters, priceDisplay, soldWindowMs, tagBanner, vehicleNoun, isValidCarSlug } from './stock.rules';
import type { CarSummary } from './stock.types';

const NOW = Date.parse('2026-03-10T12:00:00Z');

function car(overrides: Partial<CarSummary> = {}): CarSummary {
  return {
    id: 1,
    slug: 'toyota-corolla-1',
    name: '2021 Toyota Corolla Ascent Sport',
    make: 'Toyota',
    model: 'Corolla',
    badge: 'Ascent Sport',
    series: null,
    year: 2021,
    km: 42_000,
    price: 24_990,
    priceType: 'Drive Away',
    beforePrice: null,
    subscriptionPrice: null,
    carType: 'used',
    status: 'in_stock',
    itemType: 'car',
    certified: false,
    reserved: false,
    preorder: false,
    showOnDealerWebsite: true,
    photosCount: 10,
    tag: null,
    simpleFuel: 'Petrol',
    simpleBody: 'Hatch',
    simpleTransmission: 'Automatic',
    city: 'Sydney',
    state: 'NSW',
    createdAtTimestamp: NOW - 30 * DAY_MS,
    soldDateTimestamp: null,
    image: null,
    location: null,
    ...overrides,
  };
}

const config = (input: WebsiteConfigInput = {}) => parseWebsiteConfig(input);

describe('isVisible', () => {
  const defaults = config();

  it('uses a 3-day sold window by default (259200000 ms)', () => {
    expect(soldWindowMs(defaults)).toBe(259_200_000);
  });

  it('shows available cars that are on the dealer website', () => {
    expect(isVisible(car({ status: 'in_stock' }), defaults, NOW)).toBe(true);
    expect(isVisible(car({ status: 'coming_soon' }), defaults, NOW)).toBe(true);
    expect(isVisible(car({ showOnDealerWebsite: false }), defaults, NOW)).toBe(false);
    expect(isVisible(car({ status: 'coming_soon', showOnDealerWebsite: false }), defaults, NOW)).toBe(false);
  });

  it('keeps sold cars for includeSoldCarsDays after the sold date, boundary included', () => {
    const sold = (ago: number) => car({ status: 'sold', soldDateTimestamp: NOW - ago });
    expect(isVisible(sold(2 * DAY_MS), defaults, NOW)).toBe(true);
    expect(isVisible(sold(259_200_000), defaults, NOW)).toBe(true);
    expect(isVisible(sold(259_200_001), defaults, NOW)).toBe(false);
    expect(isVisible(sold(4 * DAY_MS), defaults, NOW)).toBe(false);
    expect(isVisible(car({ status: 'sold', soldDateTimestamp: null }), defaults, NOW)).toBe(false);
    expect(isVisible({ ...sold(DAY_MS), showOnDealerWebsite: false }, defaults, NOW)).toBe(false);
  });

  it('follows the website window, and 0 days lists no sold car', () => {
    const sold = (ago: number) => car({ status: 'sold', soldDateTimestamp: NOW - ago });
    const week = config({ includeSoldCarsDays: 7 });
    expect(isVisible(sold(7 * DAY_MS), week, NOW)).toBe(true);
    expect(isVisible(sold(7 * DAY_MS + 1), week, NOW)).toBe(false);
    const none = config({ includeSoldCarsDays: 0 });
    expect(isVisible(sold(0), none, NOW)).toBe(false);
    expect(isVisible(sold(-DAY_MS), none, NOW)).toBe(false);
    expect(isVisible(car(), none, NOW)).toBe(true);
  });
});

describe('matchesDefaultFilters', () => {
  it('applies minimum photos, cities and makes, ignoring case', () => {
    const site = config({ search: { defaultFilters: { minPhotos: 3, cities: ['Bathurst', 'Cowra'], makes: ['Mazda'] } } });
    const mazda = car({ make: 'MAZDA', city: 'bathurst', photosCount: 3 });
    expect(matchesDefaultFilters(mazda, site)).toBe(true);
    expect(matchesDefaultFilters({ ...mazda, photosCount: 2 }, site)).toBe(false);
    expect(matchesDefaultFilters({ ...mazda, city: 'Orange' }, site)).toBe(false);
    expect(matchesDefaultFilters({ ...mazda, city: null }, site)).toBe(false);
    expect(matchesDefaultFilters({ ...mazda, make: 'Toyota' }, site)).toBe(false);
    expect(matchesDefaultFilters(car({ photosCount: 0, city: null }), config())).toBe(true);
  });
});

describe('priceDisplay', () => {
  const aud = config();

  it('shows the price only above 10, with its price type', () => {
    expect(priceDisplay(car({ price: 11 }), aud)).toMatchObject({ price: '$11', priceType: 'Drive Away', text: null });
    expect(priceDisplay(car({ price: 24_990, priceType: 'Excl. Govt. Charges' }), aud)).toMatchObject({
      price: '$24,990',
      priceType: 'Excl. Govt. Charges',
    });
    expect(priceDisplay(car({ price: 24_990, priceType: '  ' }), aud).priceType).toBeNull();
  });

  it("says 'Enquire for price.' at 10 or below, or the pre-order text for a pre-order", () => {
    for (const price of [10, 1, 0, -5]) {
      expect(priceDisplay(car({ price }), aud)).toEqual({
        price: null,
        priceType: null,
        beforePrice: null,
        subscription: null,
        text: 'Enquire for price.',
      });
    }
    expect(priceDisplay(car({ price: 0, preorder: true }), aud).text).toBe('Pre-order');
    expect(priceDisplay(car({ price: 50_000, preorder: true }), aud)).toMatchObject({ price: '$50,000', text: null });
  });

  it('strikes through the before price only when it is higher than the price', () => {
    expect(priceDisplay(car({ price: 20_000, beforePrice: 22_000 }), aud).beforePrice).toBe('$22,000');
    expect(priceDisplay(car({ price: 20_000, beforePrice: 20_000 }), aud).beforePrice).toBeNull();
    expect(priceDisplay(car({ price: 20_000, beforePrice: 19_999 }), aud).beforePrice).toBeNull();
    expect(priceDisplay(car({ price: 10, beforePrice: 22_000 }), aud).beforePrice).toBeNull();
  });

  it("shows the subscription price as '{money}/week' where the website offers subscriptions", () => {
    const subs = config({ offersSubscription: true });
    expect(priceDisplay(car({ subscriptionPrice: 129 }), subs).subscription).toBe('$129/week');
    expect(priceDisplay(car({ price: 0, subscriptionPrice: 129 }), subs)).toMatchObject({
      subscription: '$129/week',
      text: 'Enquire for price.',
    });
    expect(priceDisplay(car({ subscriptionPrice: 0 }), subs).subscription).toBeNull();
    expect(priceDisplay(car({ subscriptionPrice: 129 }), aud).subscription).toBeNull();
  });

  it('formats in the website currency', () => {
    expect(priceDisplay(car({ price: 31_500 }), config({ locale: 'en-US', currency: 'USD' })).price).toBe('$31,500');
    expect(priceDisplay(car({ price: 31_500 }), config({ locale: 'en-NZ', currency: 'NZD' })).price).toBe('$31,500');
  });
});

describe('tagBanner', () => {
  const defaults = config();
  const fuelSite = config({ search: { fuelTypeTag: true } });
  const label = (c: CarSummary, site = defaults) => tagBanner(c, site, NOW)?.label ?? null;

  it('puts electric or hybrid first, only where the website shows the fuel type tag', () => {
    const ev = car({ simpleFuel: 'Electric', reserved: true, certified: true, tag: 'Special' });
    expect(label(ev, fuelSite)).toBe('Electric');
    expect(label(car({ simpleFuel: 'Plug-in Hybrid', reserved: true }), fuelSite)).toBe('Hybrid');
    expect(label(car({ simpleFuel: 'Petrol', reserved: true }), fuelSite)).toBe('Reserved');
    expect(label(ev)).toBe('Reserved');
  });

  it('then reserved, certified, the custom tag, coming soon, just arrived', () => {
    const all = car({ reserved: true, certified: true, tag: 'Special', status: 'coming_soon', createdAtTimestamp: NOW });
    expect(tagBanner(all, defaults, NOW)).toEqual({ kind: 'reserved', label: 'Reserved' });
    expect(tagBanner({ ...all, reserved: false }, defaults, NOW)).toEqual({ kind: 'certified', label: 'Certified' });
    expect(label({ ...all, reserved: false, certified: false })).toBe('Special');
    expect(label({ ...all, reserved: false, certified: false, tag: '*** Test Drive Vehicle Only ***' })).toBe(
      '*** Test Drive Vehicle Only ***',
    );
    expect(label({ ...all, reserved: false, certified: false, tag: '  ' })).toBe('Coming Soon');
    expect(label({ ...all, reserved: false, certified: false, tag: null, status: 'in_stock' })).toBe('Just Arrived');
  });

  it('calls a car just arrived within justArrivedDays (8 by default), boundary included', () => {
    expect(label(car({ createdAtTimestamp: NOW - 8 * DAY_MS }))).toBe('Just Arrived');
    expect(label(car({ createdAtTimestamp: NOW - 8 * DAY_MS - 1 }))).toBeNull();
    const named = config({ specifications: { justArrivedDays: 2, justArrivedTagName: 'NEW IN' } });
    expect(label(car({ createdAtTimestamp: NOW - 2 * DAY_MS }), named)).toBe('NEW IN');
    expect(label(car({ createdAtTimestamp: NOW - 2 * DAY_MS - 1 }), named)).toBeNull();
    expect(label(car({ createdAtTimestamp: NOW }), config({ specifications: { justArrivedDays: 0 } }))).toBeNull();
  });

  it('shows the sold tag on a recently sold car, and nothing on an older sale', () => {
    const sold = car({ status: 'sold', soldDateTimestamp: NOW - DAY_MS, reserved: true, createdAtTimestamp: NOW });
    expect(tagBanner(sold, defaults, NOW)).toEqual({ kind: 'sold', label: 'JUST SOLD' });
    expect(label(sold, config({ specifications: { soldTagName: 'SOLD' } }))).toBe('SOLD');
    expect(label({ ...sold, soldDateTimestamp: NOW - 3 * DAY_MS })).toBe('JUST SOLD');
    expect(label({ ...sold, soldDateTimestamp: NOW - 3 * DAY_MS - 1 })).toBeNull();
  });

  it('shows nothing on an ordinary car', () => {
    expect(tagBanner(car(), defaults, NOW)).toBeNull();
  });
});

describe('conditionLabel and other helpers', () => {
  it("shows 'used' as the website's label", () => {
    expect(conditionLabel('used', config({ usedConditionLabel: 'pre-owned' }))).toBe('pre-owned');
    expect(conditionLabel('used', config())).toBe('used');
    expect(conditionLabel('new', config({ usedConditionLabel: 'pre-owned' }))).toBe('new');
    expect(conditionLabel('demo', config())).toBe('demo');
  });

  it('accepts only letters, digits, hyphen and underscore in a car slug', () => {
    expect(isValidCarSlug('2021-Toyota_Corolla-9')).toBe(true);
    for (const bad of ['', 'abc$%', 'a b', '../x', "x'--", 'a/b', 'é', 'a'.repeat(201), null, 5]) {
      expect(isValidCarSlug(bad)).toBe(false);
    }
  });

  it('reads car-type search segments', () => {
    expect(carTypeFromSearchSlug('used-cars')).toBe('used');
    expect(carTypeFromSearchSlug('new-cars')).toBe('new');
    expect(carTypeFromSearchSlug('demo-cars')).toBe('demo');
    expect(carTypeFromSearchSlug('old-cars')).toBeNull();
    expect(carTypeFromSearchSlug('used-cars-x')).toBeNull();
  });

  it('names the vehicles of the website', () => {
    expect(vehicleNoun(config())).toBe('cars');
    expect(vehicleNoun(config({ vehiclePath: 'motorcycles' }))).toBe('motorcycles');
    expect(vehicleNoun(config({ vehiclePath: 'campers' }), 1)).toBe('camper');
    expect(vehicleNoun(config({ search: { defaultSlug: 'new-used-and-demo-trucks' } }))).toBe('trucks');
    expect(vehicleNoun(config({ search: { defaultSlug: 'new-used-and-demo-trucks' } }), 1)).toBe('truck');
    expect(vehicleNoun(config({ vehiclePath: 'campers', search: { defaultSlug: 'pre-owned' } }))).toBe('campers');
  });
});
