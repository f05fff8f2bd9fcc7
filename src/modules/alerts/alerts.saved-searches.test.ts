import { describe, expect, it } from 'vitest';
import { parseWebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { savedSearchName } from './alerts.saved-searches';

const au = parseWebsiteConfig({});
const us = parseWebsiteConfig({ locale: 'en-US', currency: 'USD', timeZone: 'America/Chicago', distanceUnit: 'mi' });
const listing = { heading: 'Used cars' };
const state = (filters: object, q?: string) => ({ filters, q, page: 1 });

describe('savedSearchName (issue 35: a name made from the filters)', () => {
  it('reads a model with a budget as one phrase, as the issue writes it', () => {
    expect(savedSearchName(listing, state({ make: ['Ford'], make_model: ['Ford:Ranger'], price: { max: 50_000 } }), au)).toBe('Ford Ranger under $50,000');
  });

  it('names makes without a chosen model, text, other filters and ranges as a list', () => {
    expect(savedSearchName(listing, state({ make: ['Toyota', 'Mazda'], simple_body: ['SUV'], year: { min: 2020 } }, 'hybrid'), au)).toBe('Toyota or Mazda, “hybrid”, SUV, 2020 or newer');
    expect(savedSearchName(listing, state({ price: { min: 20_000, max: 30_000 }, km: { max: 50_000 } }), au)).toBe('$20,000–$30,000, under 50,000 km');
    expect(savedSearchName(listing, state({ year: { min: 2018, max: 2021 }, make: ['ŠKODA'] }), au)).toBe('Škoda, 2018–2021');
  });

  it('writes a US website’s distances in miles and its fuel in its words', () => {
    expect(savedSearchName(listing, state({ km: { max: 30_000 }, simple_fuel: ['Petrol'] }), us)).toBe('Gas, under 30,000 mi');
  });

  it('falls back to the page’s heading when the search asks for nothing more than the page', () => {
    expect(savedSearchName(listing, state({}), au)).toBe('Used cars');
  });

  it('keeps a name to 100 characters', () => {
    const name = savedSearchName(listing, state({}, 'x'.repeat(300)), au);
    expect(name).toHaveLength(100);
    expect(name.endsWith('…')).toBe(true);
  });
});
