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
  });
});
