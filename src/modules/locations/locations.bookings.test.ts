import { describe, expect, it } from 'vitest';
import { computeLocationSlots, openingIntervals, parseClock } from './locations.bookings';
import { formatInZone, instantOfWallTime, offsetMinutesAt } from '@/lib/time-zone';

describe('time-zone arithmetic', () => {
  it('finds the offset of a zone at an instant, summer and winter', () => {
    expect(offsetMinutesAt(Date.parse('2026-01-15T00:00:00Z'), 'Australia/Sydney')).toBe(660);
    expect(offsetMinutesAt(Date.parse('2026-07-15T00:00:00Z'), 'Australia/Sydney')).toBe(600);
    expect(offsetMinutesAt(Date.parse('2026-07-15T00:00:00Z'), 'Australia/Adelaide')).toBe(570);
    expect(offsetMinutesAt(Date.parse('2026-07-15T00:00:00Z'), 'America/New_York')).toBe(-240);
    expect(offsetMinutesAt(Date.parse('2026-07-15T00:00:00Z'), 'Pacific/Auckland')).toBe(720);
  });

  it('turns a wall time into its instant; null in the spring-forward gap; the first one in the fall-back overlap', () => {
    expect(instantOfWallTime({ year: 2026, month: 10, day: 4, hour: 1, minute: 30 }, 'Australia/Sydney')).toBe(Date.parse('2026-10-04T01:30:00+10:00'));
    expect(instantOfWallTime({ year: 2026, month: 10, day: 4, hour: 2, minute: 30 }, 'Australia/Sydney')).toBeNull();
    expect(instantOfWallTime({ year: 2026, month: 10, day: 4, hour: 3, minute: 0 }, 'Australia/Sydney')).toBe(Date.parse('2026-10-04T03:00:00+11:00'));
    expect(instantOfWallTime({ year: 2026, month: 4, day: 5, hour: 2, minute: 30 }, 'Australia/Sydney')).toBe(Date.parse('2026-04-05T02:30:00+11:00'));
    expect(instantOfWallTime({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, 'America/New_York')).toBeNull();
    expect(instantOfWallTime({ year: 2026, month: 6, day: 1, hour: 9, minute: 0 }, 'Asia/Kolkata')).toBe(Date.parse('2026-06-01T09:00:00+05:30'));
  });

  it('formats an instant with the offset it has in the zone', () => {
    expect(formatInZone(Date.parse('2026-11-22T22:00:00Z'), 'Australia/Sydney')).toBe('2026-11-23T09:00:00+11:00');
    expect(formatInZone(Date.parse('2026-06-01T03:30:00Z'), 'Asia/Kolkata')).toBe('2026-06-01T09:00:00+05:30');
    expect(formatInZone(Date.parse('2026-06-01T13:00:00Z'), 'America/New_York')).toBe('2026-06-01T09:00:00-04:00');
  });
});

describe('opening hours', () => {
  it.each([
    ['09:00', 540],
    ['9:30', 570],
    ['17:00:00', 1020],
    ['24:00', 1440],
    ['24:30', null],
    ['9am', null],
    ['09:60', null],
    [null, null],
    [900, null],
  ])('reads the clock %j as %j', (value, minutes) => {
    expect(parseClock(value)).toBe(minutes);
  });

  const hours = [
    { weekday: 1, status: 'Open', open: '09:00', close: '12:00' },
    { weekday: 1, status: 'Open', open: '13:00', close: '17:00' },
    { weekday: 2, status: 'Closed', open: '09:00', close: '17:00' },
  ];

  it('gives each open interval of the weekday, none when closed', () => {
    expect(openingIntervals(hours, 1, undefined)).toEqual([
      { open: 540, close: 720 },
      { open: 780, close: 1020 },
    ]);
    expect(openingIntervals(hours, 2, undefined)).toEqual([]);
    expect(openingIntervals('garbage', 1, undefined)).toEqual([]);
  });

  it('lets special hours close the day or replace its hours', () => {
    expect(openingIntervals(hours, 1, { status: 'Closed', startHour: null, endHour: null })).toEqual([]);
    expect(openingIntervals(hours, 2, { status: 'Open', startHour: '10:00', endHour: '12:00' })).toEqual([{ open: 600, close: 720 }]);
    // Open without readable hours: the usual hours.
    expect(openingIntervals(hours, 1, { status: 'Open', startHour: null, endHour: null })).toHaveLength(2);
  });
});

describe('computeLocationSlots', () => {
  it('gives 30-minute slots that fit before closing, skipping the lunch break', () => {
    const now = new Date('2026-11-22T12:00:00Z'); // Sunday 23:00 in Sydney
    const slots = computeLocationSlots({
      timeZone: 'Australia/Sydney',
      openingHours: [
        { weekday: 1, status: 'Open', open: '09:00', close: '10:15' },
        { weekday: 1, status: 'Open', open: '11:00', close: '12:00' },
      ],
      specialHoursByDate: new Map(),
      bookedStarts: [],
      now,
      days: 1,
    });
    expect(slots.map((s) => formatInZone(s, 'Australia/Sydney'))).toEqual([]);
    const monday = computeLocationSlots({
      timeZone: 'Australia/Sydney',
      openingHours: [
        { weekday: 1, status: 'Open', open: '09:00', close: '10:15' },
        { weekday: 1, status: 'Open', open: '11:00', close: '12:00' },
      ],
      specialHoursByDate: new Map(),
      bookedStarts: [],
      now,
      days: 2,
    });
    expect(monday.map((s) => formatInZone(s, 'Australia/Sydney'))).toEqual([
      '2026-11-23T09:00:00+11:00',
      '2026-11-23T09:30:00+11:00',
      '2026-11-23T11:00:00+11:00',
      '2026-11-23T11:30:00+11:00',
    ]);
  });
});
