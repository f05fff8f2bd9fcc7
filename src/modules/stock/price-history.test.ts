import { describe, expect, it } from 'vitest';
import { parseWebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { priceHistory } from './price-history';

// 19 November 2026, 20:00 UTC: already 20 November in Sydney and Auckland, still the 19th in Chicago.
const AT = Date.UTC(2026, 10, 19, 20, 0);
const EARLIER = Date.UTC(2026, 10, 2, 1, 0);

const au = parseWebsiteConfig({});
const nz = parseWebsiteConfig({ locale: 'en-NZ', currency: 'NZD', timeZone: 'Pacific/Auckland' });
const us = parseWebsiteConfig({ locale: 'en-US', currency: 'USD', timeZone: 'America/Chicago', distanceUnit: 'mi' });

describe('priceHistory (issue 35: shown only when the price changed, with dates)', () => {
  const changes = [
    { at: AT, from: 32_990, to: 30_990 },
    { at: EARLIER, from: 31_990, to: 32_990 },
  ];

  it('lists each change newest first with its date in the website’s locale and time zone, the new price and the one before', () => {
    expect(priceHistory({ price: 30_990, priceChanges: changes }, au)).toEqual([
      { date: '20 November 2026', price: '$30,990', was: '$32,990', direction: 'down' },
      { date: '2 November 2026', price: '$32,990', was: '$31,990', direction: 'up' },
    ]);
    expect(priceHistory({ price: 30_990, priceChanges: changes }, nz)?.[0]).toEqual({ date: '20 November 2026', price: '$30,990', was: '$32,990', direction: 'down' });
    expect(priceHistory({ price: 30_990, priceChanges: changes }, us)?.[0]).toEqual({ date: 'November 19, 2026', price: '$30,990', was: '$32,990', direction: 'down' });
  });

  it('shows nothing without a change held', () => {
    expect(priceHistory({ price: 30_990, priceChanges: [] }, au)).toBeNull();
  });

  it('leaves out changes from or to a price that is not shown (SPEC §5: only above $10), and shows nothing when none is left', () => {
    const fromNone = { at: EARLIER, from: 0, to: 32_990 };
    const toTen = { at: AT, from: 32_990, to: 10 };
    expect(priceHistory({ price: 32_990, priceChanges: [fromNone] }, au)).toBeNull();
    expect(priceHistory({ price: 32_990, priceChanges: [{ at: AT, from: 11, to: 32_990 }] }, au)).toEqual([
      { date: '20 November 2026', price: '$32,990', was: '$11', direction: 'up' },
    ]);
    expect(priceHistory({ price: 32_990, priceChanges: [toTen, { at: EARLIER, from: 31_990, to: 32_990 }] }, au)).toHaveLength(1);
  });

  it('shows nothing while the car’s own price is not shown (a price on application must not be given away by its history)', () => {
    expect(priceHistory({ price: 10, priceChanges: changes }, au)).toBeNull();
    expect(priceHistory({ price: 0, priceChanges: changes }, au)).toBeNull();
    expect(priceHistory({ price: 11, priceChanges: changes }, au)).toHaveLength(2);
  });

  it('shows nothing on a website that turned it off', () => {
    expect(priceHistory({ price: 30_990, priceChanges: changes }, parseWebsiteConfig({ carPage: { priceHistory: false } }))).toBeNull();
  });
});
