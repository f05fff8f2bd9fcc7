import { describe, expect, it } from 'vitest';
import { formatDate, formatDistance, formatMoney, formatOdometer, spell } from './format';

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

describe('dates in the website\'s locale and time zone (issue 31)', () => {
  // 2026-11-28T07:07:48Z: the moment /checkout showed as '11/28/2026, 7:07:48 AM' on an Australian site.
  const instant = Date.UTC(2026, 10, 28, 7, 7, 48);
  const sydney = { locale: 'en-AU', timeZone: 'Australia/Sydney' } as const;
  const auckland = { locale: 'en-NZ', timeZone: 'Pacific/Auckland' } as const;
  const chicago = { locale: 'en-US', timeZone: 'America/Chicago' } as const;

  it('writes a date and time as the website does, whatever the machine\'s own zone', () => {
    expect(formatDate(sydney, instant, 'dateTime')).toBe('28 Nov 2026, 6:07 pm AEDT');
    expect(formatDate(auckland, instant, 'dateTime')).toBe('28 Nov 2026, 8:07 pm NZDT');
    expect(formatDate(chicago, new Date(instant).toISOString(), 'dateTime')).toBe('Nov 28, 2026, 1:07 AM CST');
  });

  it('writes a date on the website\'s calendar day', () => {
    // 23:30 UTC on 2 March is already 3 March in Sydney.
    expect(formatDate(sydney, Date.UTC(2026, 2, 2, 23, 30))).toBe('3 March 2026');
    expect(formatDate(chicago, Date.UTC(2026, 2, 2, 23, 30))).toBe('March 2, 2026');
  });

  it('falls back to UTC for a zone the runtime does not know, and to nothing for no date', () => {
    expect(formatDate({ locale: 'en-AU' as const, timeZone: 'Mars/Olympus' }, instant, 'dateTime')).toBe('28 Nov 2026, 7:07 am UTC');
    expect(formatDate(sydney, 'not a date')).toBe('');
  });
});
