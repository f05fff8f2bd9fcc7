import { describe, expect, it } from 'vitest';
import { parseWebsiteConfig } from '@/modules/tenancy/tenancy.config';
import type { CarDetail } from '@/modules/stock/stock.types';
import { compareSlugs, compareView } from './compare-view';

const config = parseWebsiteConfig({});

function car(id: number, overrides: Partial<CarDetail>): CarDetail {
  return {
    id, slug: `car-${id}`, name: `Car ${id}`, make: 'Mazda', model: 'CX-5', badge: null, series: null, year: 2021, km: 40_000, price: 30_000, priceType: 'Drive Away',
    beforePrice: null, subscriptionPrice: null, carType: 'used', status: 'in_stock', itemType: 'car', certified: false, reserved: false, preorder: false, showOnDealerWebsite: true,
    photosCount: 1, tag: null, simpleFuel: 'Petrol', simpleBody: 'SUV', simpleTransmission: 'Automatic', city: 'Sydney', state: 'NSW', createdAtTimestamp: 0, soldDateTimestamp: null,
    image: null, location: { name: 'Parramatta', slug: 'parramatta', city: 'Parramatta', street: '1 Church St', state: 'NSW', postcode: '2150', country: 'AU', lat: null, long: null, phone: '' },
    stocknum: `S${id}`, vin: null, colour: 'Red', seats: 5, doors: 4, engine: null, simpleDrive: 'AWD', description: '', features: [], images: [], dealershipId: 1, dealershipSlug: 'd',
    dealershipName: 'D', phone: '', whatsappNumber: null, nvic: null, reservable: null, hasPaymentProcessor: false, historyReportUrl: null, marketAveragePrice: null,
    stateMarketAveragePrice: null, priceChanges: [], ...overrides,
  } as CarDetail;
}

describe('compareView (issue 35: cars side by side, differences highlighted)', () => {
  const view = compareView([car(1, { features: ['Sunroof', 'Heated seats'] }), car(2, { year: 2023, km: 12_000, colour: null, features: ['Sunroof'] })], config);
  const row = (label: string) => view.rows.find((r) => r.label === label);

  it('marks a specification whose values differ, and not one they share', () => {
    expect(row('Year')).toEqual({ label: 'Year', values: ['2021', '2023'], differs: true });
    expect(row('Odometer')).toEqual({ label: 'Odometer', values: ['40,000 km', '12,000 km'], differs: true });
    expect(row('Body')).toEqual({ label: 'Body', values: ['SUV', 'SUV'], differs: false });
    expect(row('Location')).toEqual({ label: 'Location', values: ['Parramatta', 'Parramatta'], differs: false });
  });

  it('shows a value one car does not state as a dash, which differs; leaves out what no car states and the identifiers', () => {
    expect(row('Colour')).toEqual({ label: 'Colour', values: ['Red', '—'], differs: true });
    expect(row('Engine')).toBeUndefined();
    expect(row('Stock number')).toBeUndefined();
    expect(row('VIN')).toBeUndefined();
  });

  it('lists every feature any car has, alphabetically, yes or no for each', () => {
    expect(view.features).toEqual([
      { label: 'Heated seats', values: ['Yes', 'No'], differs: true },
      { label: 'Sunroof', values: ['Yes', 'Yes'], differs: false },
    ]);
  });

  it('gives each car the price block of the car page, with the instant quote (decision 052)', () => {
    expect(view.prices.map((p) => p.price)).toEqual(['$30,000', '$30,000']);
    expect(view.prices[0].estimate).not.toBeNull();
  });
});

describe('compareSlugs', () => {
  const valid = (slug: string) => /^[a-z0-9-]+$/.test(slug);
  it('takes valid slugs, each once, at most three', () => {
    expect(compareSlugs(['a', 'b', 'a', 'c', 'd'], valid)).toEqual(['a', 'b', 'c']);
    expect(compareSlugs('a', valid)).toEqual(['a']);
    expect(compareSlugs(['<x>', '../etc', 'ok'], valid)).toEqual(['ok']);
    expect(compareSlugs(undefined, valid)).toEqual([]);
  });
});
