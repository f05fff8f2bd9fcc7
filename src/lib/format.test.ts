import { describe, expect, it } from 'vitest';
import { formatDistance, formatMoney, formatOdometer, spell } from './format';

const au = { locale: 'en-AU', currency: 'AUD', distanceUnit: 'km' } as const;
const nz = { locale: 'en-NZ', currency: 'NZD', distanceUnit: 'km' } as const;
const us = { locale: 'en-US', currency: 'USD', distanceUnit: 'mi' } as const;

describe('locale formatting', () => {
  it('formats whole-dollar prices in the website currency', () => {
    expect(formatMoney(au, 34990)).toBe('$34,990');
    expect(formatMoney(nz, 34990)).toBe('$34,990');
    expect(formatMoney(us, 1234567)).toBe('$1,234,567');
  });

  it('shows kilometres, or miles for miles websites', () => {
    expect(formatOdometer(au, 48280)).toBe('48,280 km');
    expect(formatOdometer(us, 48280)).toBe('30,000 mi');
    expect(formatDistance(au, 3.26)).toBe('3.3 km');
    expect(formatDistance(us, 16.09344)).toBe('10 mi');
  });

  it('uses US spelling on en-US websites only', () => {
    expect(spell(us, 'Colour and Enquiry Centre')).toBe('Color and Inquiry Center');
    expect(spell(au, 'Colour and Enquiry Centre')).toBe('Colour and Enquiry Centre');
    expect(spell(us, 'Enquire Now')).toBe('Inquire Now');
    // Issue 31: what lone-star-auto showed in Australian words.
    expect(spell(us, 'Postcode')).toBe('ZIP code');
    expect(spell(us, 'Registration (Rego)')).toBe('License plate');
    expect(spell(us, 'Look your car up by its rego or VIN')).toBe('Look your car up by its license plate or VIN');
    expect(spell(us, 'Petrol')).toBe('Gas');
    expect(spell(us, 'Service centre')).toBe('Service center');
    expect(spell(us, 'General Enquiry')).toBe('General Inquiry');
    expect(spell(au, 'Registration (Rego)')).toBe('Registration (Rego)');
  });
});
