import { describe, expect, it } from 'vitest';
import { collator, dateTimeFormat, numberFormat } from './intl';

describe('kept Intl formatters', () => {
  it('gives the same formatter for the same locale and options, another for others', () => {
    expect(numberFormat('en-AU', { style: 'currency', currency: 'AUD' })).toBe(numberFormat('en-AU', { style: 'currency', currency: 'AUD' }));
    expect(numberFormat('en-AU', { style: 'currency', currency: 'AUD' })).not.toBe(numberFormat('en-AU', { style: 'currency', currency: 'NZD' }));
    expect(numberFormat('en-US')).not.toBe(numberFormat('en-AU'));
  });

  it('formats as a new formatter would', () => {
    expect(numberFormat('en-AU', { style: 'currency', currency: 'AUD', maximumFractionDigits: 0 }).format(24990)).toBe('$24,990');
    expect(numberFormat('de-DE').format(12345)).toBe('12.345');
    expect(dateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(new Date('2026-03-03T00:00:00Z'))).toBe('March');
    expect(['b10', 'B2', 'a'].sort(collator('en', { sensitivity: 'base', numeric: true }).compare)).toEqual(['a', 'B2', 'b10']);
  });

  it('throws for an unknown time zone, as the constructor does, and keeps nothing for it', () => {
    expect(() => dateTimeFormat('en-AU', { timeZone: 'Mars/Olympus' })).toThrow(RangeError);
    expect(() => dateTimeFormat('en-AU', { timeZone: 'Mars/Olympus' })).toThrow(RangeError);
  });
});
