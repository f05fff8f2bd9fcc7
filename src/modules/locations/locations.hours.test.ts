import { describe, expect, it } from 'vitest';
import { weeklyHours } from '@/modules/locations/locations.hours';
import { formatClock12, holidayRows, nextHoursChange, openingHoursRows, openStatus, openStatusText, parseClock, parseSpecialHours, parseSpecialHoursEntry } from './locations.hours';
import type { SpecialHoursEntry } from './locations.types';
import { locationTimeZone, zonesForState } from './locations.zones';

const SALES = weeklyHours({ weekdays: ['08:30', '17:30'], saturday: ['08:30', '16:00'], sunday: null });
const SYDNEY = 'Australia/Sydney';

const special = (date: string, status: 'Open' | 'Closed', start: string | null = null, end: string | null = null, name: string | null = null): SpecialHoursEntry => ({
  date,
  status,
  locationId: 1,
  startHour: start,
  endHour: end,
  name,
});

describe('12-hour clock', () => {
  it.each([
    [0, '12:00 am'],
    [1, '12:01 am'],
    [510, '8:30 am'],
    [719, '11:59 am'],
    [720, '12:00 pm'],
    [780, '1:00 pm'],
    [1439, '11:59 pm'],
    [1440, '12:00 am'],
  ])('%i minutes reads %s', (minutes, text) => {
    expect(formatClock12(minutes)).toBe(text);
  });

  it('reads HH:MM and H:MM up to 24:00, nothing else', () => {
    expect(parseClock('08:30')).toBe(510);
    expect(parseClock('8:30')).toBe(510);
    expect(parseClock('24:00')).toBe(1440);
    expect(parseClock('24:01')).toBeNull();
    expect(parseClock('12:60')).toBeNull();
    expect(parseClock('nine')).toBeNull();
    expect(parseClock(null)).toBeNull();
  });
});

describe('weekly opening-hours list', () => {
  // Monday 23 November 2026, 10:00 in Sydney (AEDT).
  const monday = new Date('2026-11-22T23:00:00Z');

  it('groups Monday to Friday when all five are identical, Monday first, 12-hour times', () => {
    const rows = openingHoursRows(SALES, { timeZone: SYDNEY, now: monday });
    expect(rows.map((r) => [r.label, r.text])).toEqual([
      ['Mon-Fri', '8:30 am - 5:30 pm'],
      ['Saturday', '8:30 am - 4:00 pm'],
      ['Sunday', 'Closed'],
    ]);
    expect(rows[0].today).toBe(true);
    expect(rows.filter((r) => r.today)).toHaveLength(1);
  });

  it('lists each weekday when one differs (late-night Thursday)', () => {
    const hours = weeklyHours({ weekdays: ['08:30', '17:30'], saturday: null, sunday: null, overrides: { 4: ['08:30', '20:00'] } });
    const rows = openingHoursRows(hours, { timeZone: SYDNEY, now: monday });
    expect(rows.map((r) => r.label)).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    expect(rows[3].text).toBe('8:30 am - 8:00 pm');
  });

  it('treats a missing or unreadable weekday entry as closed', () => {
    const hours = SALES.filter((e) => e.weekday !== 6).concat([{ weekday: 3, status: 'Open', open: 'soon', close: '17:00' }]);
    const rows = openingHoursRows(hours, { timeZone: SYDNEY, now: monday });
    expect(rows.find((r) => r.label === 'Saturday')?.text).toBe('Closed');
  });

  it("shows 'By appointment only' on closed days where the location allows it", () => {
    const rows = openingHoursRows(weeklyHours({ weekdays: ['09:00', '16:00'], saturday: null, sunday: null }), {
      timeZone: 'Australia/Perth',
      now: monday,
      settings: { appointmentOnly: true },
    });
    expect(rows.map((r) => [r.label, r.text, r.kind])).toEqual([
      ['Mon-Fri', '9:00 am - 4:00 pm', 'open'],
      ['Saturday', 'By appointment only', 'appointment'],
      ['Sunday', 'By appointment only', 'appointment'],
    ]);
  });

  it("replaces weekend hours by 'Enquire Now' where the location is configured so", () => {
    const rows = openingHoursRows(SALES, { timeZone: SYDNEY, now: monday, settings: { weekendEnquiryLink: true } });
    expect(rows.slice(1).map((r) => [r.label, r.text, r.kind])).toEqual([
      ['Saturday', 'Enquire Now', 'enquire'],
      ['Sunday', 'Enquire Now', 'enquire'],
    ]);
  });

  it('applies a public holiday on its date: Christmas Day closed on a Friday, so the week is not grouped', () => {
    // Tuesday 22 December 2026 in Sydney; Christmas is Friday 25th.
    const now = new Date('2026-12-21T23:00:00Z');
    const rows = openingHoursRows(SALES, { timeZone: SYDNEY, now, specialHours: [special('2026-12-25', 'Closed', null, null, 'Christmas Day')] });
    const friday = rows.find((r) => r.label === 'Friday')!;
    expect(friday).toMatchObject({ text: 'Closed', kind: 'closed', holiday: 'Christmas Day' });
    expect(rows.find((r) => r.label === 'Thursday')?.text).toBe('8:30 am - 5:30 pm');
    // A holiday beyond the coming seven days does not change this week's list.
    const later = openingHoursRows(SALES, { timeZone: SYDNEY, now, specialHours: [special('2027-01-01', 'Closed')] });
    expect(later[0].label).toBe('Mon-Fri');
  });

  it('shows shortened holiday hours and the holiday name (Boxing Day open 10 to 4)', () => {
    // Saturday 26 December 2026.
    const now = new Date('2026-12-25T23:00:00Z');
    const rows = openingHoursRows(SALES, { timeZone: SYDNEY, now, specialHours: [special('2026-12-26', 'Open', '10:00', '16:00', 'Boxing Day')] });
    expect(rows.find((r) => r.label === 'Saturday')).toMatchObject({ text: '10:00 am - 4:00 pm', today: true, holiday: 'Boxing Day' });
  });

  describe("'Today' is the location's local date", () => {
    const hours = weeklyHours({ weekdays: ['08:30', '17:30'], saturday: ['08:30', '16:00'], sunday: ['10:00', '16:00'], overrides: { 4: ['08:30', '20:00'] } });
    const todayLabel = (now: Date, timeZone = SYDNEY) => openingHoursRows(hours, { timeZone, now }).find((r) => r.today)?.label;

    it('at 23:59 local it is still that day', () => {
      // Wednesday 25 November 2026 23:59 AEDT = 12:59 UTC.
      expect(todayLabel(new Date('2026-11-25T12:59:00Z'))).toBe('Wednesday');
    });

    it('at 00:01 local it is the next day, while UTC is still on the previous one', () => {
      // Thursday 26 November 2026 00:01 AEDT = Wednesday 13:01 UTC.
      expect(todayLabel(new Date('2026-11-25T13:01:00Z'))).toBe('Thursday');
    });

    it('the same instant is a different day in Perth', () => {
      expect(todayLabel(new Date('2026-11-25T13:01:00Z'), 'Australia/Perth')).toBe('Wednesday');
    });
  });
});

describe('open now / closes at', () => {
  it('is open inside the hours and says when it closes', () => {
    // Monday 23 November 2026 10:00 AEDT.
    const status = openStatus(SALES, { timeZone: SYDNEY, now: new Date('2026-11-22T23:00:00Z') });
    expect(status).toEqual({ open: true, closesAt: '5:30 pm' });
    expect(openStatusText(status)).toBe('Open now · closes at 5:30 pm');
  });

  it('closes exactly at closing time and opens exactly at opening time', () => {
    // 17:30 and 08:30 AEDT on Monday 23 November 2026.
    expect(openStatus(SALES, { timeZone: SYDNEY, now: new Date('2026-11-23T06:30:00Z') })).toEqual({ open: false, opensAt: { day: 'tomorrow', time: '8:30 am' } });
    expect(openStatus(SALES, { timeZone: SYDNEY, now: new Date('2026-11-23T06:29:00Z') }).open).toBe(true);
    expect(openStatus(SALES, { timeZone: SYDNEY, now: new Date('2026-11-22T21:30:00Z') })).toEqual({ open: true, closesAt: '5:30 pm' });
    expect(openStatus(SALES, { timeZone: SYDNEY, now: new Date('2026-11-22T21:29:00Z') })).toEqual({ open: false, opensAt: { day: 'today', time: '8:30 am' } });
  });

  it('names the weekday of the next opening after a closed Sunday', () => {
    // Saturday 28 November 2026 17:00 AEDT: closed until Monday.
    const status = openStatus(SALES, { timeZone: SYDNEY, now: new Date('2026-11-28T06:00:00Z') });
    expect(status).toEqual({ open: false, opensAt: { day: 'Monday', time: '8:30 am' } });
    expect(openStatusText(status)).toBe('Closed now · opens Monday at 8:30 am');
  });

  it('is closed on a public holiday that falls on a working day', () => {
    // Friday 25 December 2026 11:00 AEDT.
    const now = new Date('2026-12-25T00:00:00Z');
    expect(openStatus(SALES, { timeZone: SYDNEY, now, specialHours: [special('2026-12-25', 'Closed')] })).toEqual({
      open: false,
      opensAt: { day: 'tomorrow', time: '8:30 am' },
    });
    expect(openStatus(SALES, { timeZone: SYDNEY, now }).open).toBe(true);
  });

  it('is never open with no hours at all', () => {
    expect(openStatus([], { timeZone: SYDNEY, now: new Date() })).toEqual({ open: false, opensAt: null });
    expect(openStatusText({ open: false, opensAt: null })).toBe('Closed now');
  });

  describe('daylight saving', () => {
    // Sunday 4 October 2026 Sydney clocks go from 2:00 AEST to 3:00 AEDT. Monday 5 October 21:45 UTC
    // before is 08:45 AEDT (+11), which would be 07:45 on last week's offset (+10).
    const mondayAfterChange = new Date('2026-10-04T21:45:00Z');

    it('Sydney uses daylight time after the change: open at 8:45 am', () => {
      expect(openStatus(SALES, { timeZone: SYDNEY, now: mondayAfterChange })).toEqual({ open: true, closesAt: '5:30 pm' });
    });

    it('Sydney uses standard time before the change: 21:45 UTC on Monday 28 September is 7:45 am, closed', () => {
      expect(openStatus(SALES, { timeZone: SYDNEY, now: new Date('2026-09-27T21:45:00Z') })).toEqual({
        open: false,
        opensAt: { day: 'today', time: '8:30 am' },
      });
    });

    it('Brisbane keeps standard time all year: the same instant is 7:45 am there, closed', () => {
      expect(openStatus(SALES, { timeZone: 'Australia/Brisbane', now: mondayAfterChange })).toEqual({
        open: false,
        opensAt: { day: 'today', time: '8:30 am' },
      });
    });

    it('on the night of the change itself the wall clock decides (a Sunday trading 1:00 am to 4:00 am)', () => {
      const night = weeklyHours({ weekdays: null, saturday: null, sunday: ['01:00', '04:00'] });
      // 15:30 UTC Saturday 3 October = 01:30 AEST; 16:30 UTC = 03:30 AEDT (2:00 to 3:00 never happens).
      expect(openStatus(night, { timeZone: SYDNEY, now: new Date('2026-10-03T15:30:00Z') })).toEqual({ open: true, closesAt: '4:00 am' });
      expect(openStatus(night, { timeZone: SYDNEY, now: new Date('2026-10-03T16:30:00Z') })).toEqual({ open: true, closesAt: '4:00 am' });
      expect(openStatus(night, { timeZone: SYDNEY, now: new Date('2026-10-03T17:00:00Z') }).open).toBe(false);
    });

    it('Auckland changes on 27 September 2026: 20:45 UTC on Sunday is 9:45 am NZDT on Monday, open', () => {
      const hours = weeklyHours({ weekdays: ['09:00', '17:30'], saturday: null, sunday: null });
      expect(openStatus(hours, { timeZone: 'Pacific/Auckland', now: new Date('2026-09-27T20:45:00Z') })).toEqual({ open: true, closesAt: '5:30 pm' });
      // A week earlier the same UTC time was 8:45 am NZST: closed.
      expect(openStatus(hours, { timeZone: 'Pacific/Auckland', now: new Date('2026-09-20T20:45:00Z') }).open).toBe(false);
    });

    it("Auckland's 'Today' at 00:01 local is a day ahead of Sydney", () => {
      // Tuesday 1 December 2026 00:01 NZDT = 11:01 UTC Monday = 22:01 Monday in Sydney.
      const now = new Date('2026-11-30T11:01:00Z');
      expect(openingHoursRows(SALES, { timeZone: 'Pacific/Auckland', now }).find((r) => r.today)?.label).toBe('Mon-Fri');
      const hours = weeklyHours({ weekdays: ['09:00', '17:30'], saturday: null, sunday: null, overrides: { 1: ['09:00', '12:00'] } });
      expect(openingHoursRows(hours, { timeZone: 'Pacific/Auckland', now }).find((r) => r.today)?.label).toBe('Tuesday');
      expect(openingHoursRows(hours, { timeZone: SYDNEY, now }).find((r) => r.today)?.label).toBe('Monday');
    });
  });
});

describe('special hours in both entry shapes (SPEC §3)', () => {
  it('reads { date, status, location_id, start_hour, end_hour }', () => {
    expect(parseSpecialHoursEntry({ date: '2026-12-26', status: 'Open', location_id: 7, start_hour: '10:00', end_hour: '16:00', name: 'Boxing Day' })).toEqual({
      date: '2026-12-26',
      status: 'Open',
      locationId: 7,
      startHour: '10:00',
      endHour: '16:00',
      name: 'Boxing Day',
    });
  });

  it('reads { date, status, location: { id }, hours: { begin, end } }', () => {
    expect(parseSpecialHoursEntry({ date: '2026-12-26T00:00:00+11:00', status: 'open', location: { id: '7' }, hours: { begin: '10:00', end: '16:00' } })).toEqual({
      date: '2026-12-26',
      status: 'Open',
      locationId: 7,
      startHour: '10:00',
      endHour: '16:00',
      name: null,
    });
  });

  it('a closed entry needs no hours and drops any it has', () => {
    expect(parseSpecialHoursEntry({ date: '2026-12-25', status: 'Closed', location: { id: 7 }, hours: { begin: '10:00', end: '16:00' } })).toMatchObject({
      status: 'Closed',
      startHour: null,
      endHour: null,
    });
  });

  it.each([
    ['no location', { date: '2026-12-25', status: 'Closed' }],
    ['an impossible date', { date: '2026-02-30', status: 'Closed', location_id: 1 }],
    ['an unknown status', { date: '2026-12-25', status: 'Maybe', location_id: 1 }],
    ['an open day without hours', { date: '2026-12-25', status: 'Open', location_id: 1 }],
    ['an open day ending before it starts', { date: '2026-12-25', status: 'Open', location_id: 1, start_hour: '16:00', end_hour: '10:00' }],
    ['unreadable hours', { date: '2026-12-25', status: 'Open', location: { id: 1 }, hours: { begin: 'ten', end: '16:00' } }],
    ['a string', 'Christmas'],
    ['null', null],
  ])('skips %s', (_, raw) => {
    expect(parseSpecialHoursEntry(raw)).toBeNull();
  });

  it('keeps the first entry for a location and date, sorted by date', () => {
    const list = parseSpecialHours([
      { date: '2026-12-26', status: 'Open', location_id: 1, start_hour: '10:00', end_hour: '16:00' },
      { date: '2026-12-25', status: 'Closed', location: { id: 1 } },
      { date: '2026-12-26', status: 'Closed', location: { id: 1 } },
      'junk',
    ]);
    expect(list.map((e) => [e.date, e.status])).toEqual([
      ['2026-12-25', 'Closed'],
      ['2026-12-26', 'Open'],
    ]);
    expect(parseSpecialHours({ not: 'a list' })).toEqual([]);
  });

  it('entries of the nested shape override the weekly hours like the flat ones', () => {
    const entries = parseSpecialHours([{ date: '2026-12-25', status: 'Closed', location: { id: 1 }, name: 'Christmas Day' }]);
    const rows = openingHoursRows(SALES, { timeZone: SYDNEY, now: new Date('2026-12-21T23:00:00Z'), specialHours: entries });
    expect(rows.find((r) => r.label === 'Friday')?.text).toBe('Closed');
  });
});

describe('holiday hours dialog rows', () => {
  const entries = [
    special('2026-12-24', 'Open', '09:00', '12:00', 'Christmas Eve'),
    special('2026-12-25', 'Closed', null, null, 'Christmas Day'),
    special('2026-12-26', 'Open', '10:00', '16:00', 'Boxing Day'),
  ];

  it('lists upcoming special hours from the local today with the date written out', () => {
    // 25 December 00:30 in Sydney (still the 24th in UTC): Christmas Eve is past.
    const rows = holidayRows(entries, { timeZone: SYDNEY, now: new Date('2026-12-24T13:30:00Z'), locale: 'en-AU' });
    expect(rows.map((r) => [r.label, r.name, r.text])).toEqual([
      ['Friday 25 December', 'Christmas Day', 'Closed'],
      ['Saturday 26 December', 'Boxing Day', '10:00 am - 4:00 pm'],
    ]);
  });

  it('an appointment-only location reads closed holidays as by appointment', () => {
    const rows = holidayRows(entries, { timeZone: SYDNEY, now: new Date('2026-12-20T00:00:00Z'), locale: 'en-AU', settings: { appointmentOnly: true } });
    expect(rows.find((r) => r.name === 'Christmas Day')).toMatchObject({ text: 'By appointment only', kind: 'appointment' });
  });

  it('writes US dates the US way', () => {
    const rows = holidayRows(entries, { timeZone: 'America/Chicago', now: new Date('2026-12-20T00:00:00Z'), locale: 'en-US' });
    expect(rows[0].label).toBe('Thursday, December 24');
  });
});

describe('time zone from the state', () => {
  it.each([
    [{ country: 'AU', state: 'NSW' }, 'Australia/Sydney'],
    [{ country: 'AU', state: 'ACT' }, 'Australia/Sydney'],
    [{ country: 'AU', state: 'VIC' }, 'Australia/Melbourne'],
    [{ country: 'AU', state: 'QLD' }, 'Australia/Brisbane'],
    [{ country: 'AU', state: 'SA' }, 'Australia/Adelaide'],
    [{ country: 'AU', state: 'NT' }, 'Australia/Darwin'],
    [{ country: 'AU', state: 'wa' }, 'Australia/Perth'],
    [{ country: 'AU', state: 'TAS' }, 'Australia/Hobart'],
    [{ country: 'NZ', state: 'Auckland' }, 'Pacific/Auckland'],
    [{ country: 'NZ', state: 'Canterbury' }, 'Pacific/Auckland'],
    [{ country: 'US', state: 'TX' }, 'America/Chicago'],
    [{ country: 'US', state: 'CA' }, 'America/Los_Angeles'],
    [{ country: 'US', state: 'AZ' }, 'America/Phoenix'],
    [{ country: 'US', state: 'NY' }, 'America/New_York'],
  ])('%o keeps %s', (location, zone) => {
    expect(locationTimeZone(location)).toBe(zone);
  });

  it("a stored zone wrong for the state gives way to the state's; one of the state's zones is kept", () => {
    expect(locationTimeZone({ country: 'AU', state: 'QLD', timeZone: 'Australia/Sydney' })).toBe('Australia/Brisbane');
    expect(locationTimeZone({ country: 'AU', state: 'NSW', timeZone: 'Australia/Broken_Hill' })).toBe('Australia/Broken_Hill');
    expect(locationTimeZone({ country: 'US', state: 'TX', timeZone: 'America/Denver' })).toBe('America/Denver');
  });

  it('an unknown state keeps a valid stored zone, else the fallback', () => {
    expect(locationTimeZone({ country: 'AU', state: '', timeZone: 'Australia/Darwin' })).toBe('Australia/Darwin');
    expect(locationTimeZone({ country: 'AU', state: 'XX', timeZone: 'Not/AZone' }, 'Australia/Perth')).toBe('Australia/Perth');
    expect(zonesForState('FR', 'IDF')).toEqual([]);
  });

  it('every zone in the tables is one this runtime knows', () => {
    for (const [country, states] of [
      ['AU', ['NSW', 'ACT', 'VIC', 'QLD', 'SA', 'NT', 'WA', 'TAS']],
      ['NZ', ['Auckland']],
      ['US', ['TX', 'CA', 'NY', 'AK', 'HI', 'IN', 'KY', 'MI', 'FL', 'ID', 'AZ', 'PR']],
    ] as const) {
      for (const state of states) {
        for (const zone of zonesForState(country, state)) expect(() => new Intl.DateTimeFormat('en', { timeZone: zone })).not.toThrow();
      }
    }
  });
});

describe('the next instant the hours may read differently (how long a cached page may live)', () => {
  const at = (iso: string) => ({ timeZone: SYDNEY, now: new Date(iso) });
  const next = (iso: string, specialHours: SpecialHoursEntry[] = [], hours = SALES) =>
    new Date(nextHoursChange(hours, { ...at(iso), specialHours })).toISOString();

  it("is the next opening or closing time today, else the location's next midnight", () => {
    // Monday 2 March 2026 in Sydney (+11:00).
    expect(next('2026-03-01T20:00:00Z')).toBe('2026-03-01T21:30:00.000Z'); // 7:00 am → opens 8:30 am
    expect(next('2026-03-01T21:30:00Z')).toBe('2026-03-02T06:30:00.000Z'); // 8:30 am → closes 5:30 pm
    expect(next('2026-03-02T07:00:00Z')).toBe('2026-03-02T13:00:00.000Z'); // 6:00 pm → midnight
    expect(next('2026-03-07T23:00:00Z')).toBe('2026-03-08T13:00:00.000Z'); // Sunday 10:00 am, closed → midnight
    // Special hours replace the day's hours.
    expect(next('2026-03-01T22:00:00Z', [special('2026-03-02', 'Open', '10:00', '14:00')])).toBe('2026-03-01T23:00:00.000Z');
  });

  it('falls on the end of the skipped hour when daylight saving skips the time', () => {
    // Sunday 4 October 2026: Sydney's clocks go from 2:00 to 3:00 am; a 2:30 am opening happens at 3:00 am AEDT.
    const early = weeklyHours({ weekdays: null, saturday: null, sunday: ['02:30', '16:00'] });
    expect(next('2026-10-03T15:00:00Z', [], early)).toBe('2026-10-03T16:00:00.000Z');
  });

  it('leaves nothing on the page changing before it, through a week and a daylight-saving change', () => {
    const render = (now: Date, specialHours: SpecialHoursEntry[]) =>
      JSON.stringify([openStatus(SALES, { timeZone: SYDNEY, now, specialHours }), openingHoursRows(SALES, { timeZone: SYDNEY, now, specialHours })]);
    const holidays = [special('2026-10-05', 'Closed', null, null, 'Labour Day'), special('2026-10-07', 'Open', '10:00', '14:00')];
    for (let t = Date.parse('2026-10-01T00:00:00Z'); t < Date.parse('2026-10-09T00:00:00Z'); t += 7 * 60_000 + 13_000) {
      const now = new Date(t);
      const change = nextHoursChange(SALES, { timeZone: SYDNEY, now, specialHours: holidays });
      expect(change).toBeGreaterThan(t);
      expect(render(new Date(change - 1), holidays)).toBe(render(now, holidays));
    }
  });
});
