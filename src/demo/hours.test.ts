import { describe, expect, it } from 'vitest';
import { addDays, easterSunday, localDate, publicHolidays, upcomingHolidays, weekdayOf, zonedTime } from './hours';
import { weeklyHours } from '@/modules/locations/locations.hours';

describe('weekly opening hours', () => {
  it('builds Sunday-first entries, with Monday to Friday alike unless overridden', () => {
    const hours = weeklyHours({ weekdays: ['08:30', '17:30'], saturday: ['09:00', '16:00'], sunday: null, overrides: { 4: ['08:30', '20:00'] } });
    expect(hours.map((h) => h.weekday)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(hours[0]).toEqual({ weekday: 0, status: 'Closed', open: null, close: null });
    expect(hours[1]).toEqual({ weekday: 1, status: 'Open', open: '08:30', close: '17:30' });
    expect(hours[4]).toEqual({ weekday: 4, status: 'Open', open: '08:30', close: '20:00' });
    expect(hours[6]).toEqual({ weekday: 6, status: 'Open', open: '09:00', close: '16:00' });
  });
});

describe('public holidays', () => {
  it('computes Easter Sunday', () => {
    expect(easterSunday(2024)).toEqual({ month: 3, day: 31 });
    expect(easterSunday(2025)).toEqual({ month: 4, day: 20 });
    expect(easterSunday(2026)).toEqual({ month: 4, day: 5 });
    expect(easterSunday(2027)).toEqual({ month: 3, day: 28 });
    expect(easterSunday(2038)).toEqual({ month: 4, day: 25 });
  });

  it('lists the national holidays of each country on their real dates', () => {
    const au = Object.fromEntries(publicHolidays('AU', 2027).map((h) => [h.name, h.date]));
    expect(au['Good Friday']).toBe('2027-03-26');
    expect(au['Easter Monday']).toBe('2027-03-29');
    expect(au["King's Birthday"]).toBe('2027-06-14');
    expect(au['Christmas Day']).toBe('2027-12-25');
    expect(au['Boxing Day']).toBe('2027-12-26');

    const nz = Object.fromEntries(publicHolidays('NZ', 2026).map((h) => [h.name, h.date]));
    expect(nz['Waitangi Day']).toBe('2026-02-06');
    expect(nz["King's Birthday"]).toBe('2026-06-01');
    expect(nz.Matariki).toBe('2026-07-10');
    expect(nz['Labour Day']).toBe('2026-10-26');

    const us = Object.fromEntries(publicHolidays('US', 2026).map((h) => [h.name, h.date]));
    expect(us['Memorial Day']).toBe('2026-05-25');
    expect(us['Labor Day']).toBe('2026-09-07');
    expect(us['Thanksgiving Day']).toBe('2026-11-26');
    expect(us['Independence Day']).toBe('2026-07-04');
  });

  it('lists upcoming holidays across the new year, in order, within the window', () => {
    const upcoming = upcomingHolidays('AU', '2026-11-21', 60);
    expect(upcoming.map((h) => h.name)).toEqual(['Christmas Day', 'Boxing Day', "New Year's Day"]);
    expect(upcoming.map((h) => h.date)).toEqual(['2026-12-25', '2026-12-26', '2027-01-01']);
    expect(upcomingHolidays('US', '2026-11-26', 1).map((h) => h.name)).toEqual(['Thanksgiving Day']);
  });
});

describe('dates and time zones', () => {
  it('knows the local date of an instant', () => {
    const instant = new Date('2026-11-21T20:00:00Z');
    expect(localDate(instant, 'Australia/Sydney')).toBe('2026-11-22');
    expect(localDate(instant, 'America/Chicago')).toBe('2026-11-21');
  });

  it('adds days and finds weekdays', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(weekdayOf('2026-11-22')).toBe(0);
    expect(weekdayOf('2026-11-21')).toBe(6);
  });

  it('turns local wall-clock times into instants, across daylight saving', () => {
    expect(zonedTime('2026-12-24', '09:00', 'Australia/Sydney').toISOString()).toBe('2026-12-23T22:00:00.000Z');
    expect(zonedTime('2026-06-24', '09:00', 'Australia/Sydney').toISOString()).toBe('2026-06-23T23:00:00.000Z');
    expect(zonedTime('2026-11-23', '08:00', 'America/Chicago').toISOString()).toBe('2026-11-23T14:00:00.000Z');
    expect(zonedTime('2026-11-23', '08:00', 'Australia/Perth').toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(zonedTime('2026-11-23', '08:00', 'Pacific/Auckland').toISOString()).toBe('2026-11-22T19:00:00.000Z');
  });
});
