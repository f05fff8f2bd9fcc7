import { instantOfWallTime, isoDate, wallTimeAt } from '@/lib/time-zone';

export type Country = 'AU' | 'NZ' | 'US';

export type Holiday = { date: string; name: string };

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;

/** Easter Sunday (anonymous Gregorian algorithm). */
export function easterSunday(year: number): { month: number; day: number } {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return { month, day };
}

function shift(year: number, month: number, day: number, days: number): string {
  const date = new Date(Date.UTC(year, month - 1, day + days));
  return iso(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

/** The nth (1-based) given weekday of a month; n = -1 for the last. */
function nthWeekday(year: number, month: number, weekday: number, n: number): string {
  if (n > 0) {
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return iso(year, month, 1 + ((weekday - first + 7) % 7) + (n - 1) * 7);
  }
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = new Date(Date.UTC(year, month - 1, lastDay)).getUTCDay();
  return iso(year, month, lastDay - ((last - weekday + 7) % 7));
}

/** Matariki public holiday dates fixed by the Te Kāhui o Matariki Public Holiday Act 2022. */
const MATARIKI: Record<number, string> = {
  2025: '2025-06-20',
  2026: '2026-07-10',
  2027: '2027-06-25',
  2028: '2028-07-14',
  2029: '2029-07-06',
  2030: '2030-06-21',
  2031: '2031-07-11',
  2032: '2032-07-02',
  2033: '2033-06-24',
  2034: '2034-07-07',
  2035: '2035-06-29',
};

/** National public holidays of one calendar year (actual dates, not Monday substitutes). */
export function publicHolidays(country: Country, year: number): Holiday[] {
  const easter = easterSunday(year);
  const goodFriday = shift(year, easter.month, easter.day, -2);
  const easterSaturday = shift(year, easter.month, easter.day, -1);
  const easterMonday = shift(year, easter.month, easter.day, 1);
  const list: Holiday[] =
    country === 'AU'
      ? [
          { date: iso(year, 1, 1), name: "New Year's Day" },
          { date: iso(year, 1, 26), name: 'Australia Day' },
          { date: goodFriday, name: 'Good Friday' },
          { date: easterSaturday, name: 'Easter Saturday' },
          { date: easterMonday, name: 'Easter Monday' },
          { date: iso(year, 4, 25), name: 'Anzac Day' },
          { date: nthWeekday(year, 6, 1, 2), name: "King's Birthday" },
          { date: iso(year, 12, 25), name: 'Christmas Day' },
          { date: iso(year, 12, 26), name: 'Boxing Day' },
        ]
      : country === 'NZ'
        ? [
            { date: iso(year, 1, 1), name: "New Year's Day" },
            { date: iso(year, 1, 2), name: "Day after New Year's Day" },
            { date: iso(year, 2, 6), name: 'Waitangi Day' },
            { date: goodFriday, name: 'Good Friday' },
            { date: easterMonday, name: 'Easter Monday' },
            { date: iso(year, 4, 25), name: 'Anzac Day' },
            { date: nthWeekday(year, 6, 1, 1), name: "King's Birthday" },
            ...(MATARIKI[year] ? [{ date: MATARIKI[year], name: 'Matariki' }] : []),
            { date: nthWeekday(year, 10, 1, 4), name: 'Labour Day' },
            { date: iso(year, 12, 25), name: 'Christmas Day' },
            { date: iso(year, 12, 26), name: 'Boxing Day' },
          ]
        : [
            { date: iso(year, 1, 1), name: "New Year's Day" },
            { date: nthWeekday(year, 5, 1, -1), name: 'Memorial Day' },
            { date: iso(year, 7, 4), name: 'Independence Day' },
            { date: nthWeekday(year, 9, 1, 1), name: 'Labor Day' },
            { date: nthWeekday(year, 11, 4, 4), name: 'Thanksgiving Day' },
            { date: iso(year, 12, 24), name: 'Christmas Eve' },
            { date: iso(year, 12, 25), name: 'Christmas Day' },
          ];
  return list.sort((x, y) => x.date.localeCompare(y.date));
}

/** The calendar date ('YYYY-MM-DD') of an instant in a time zone. */
export function localDate(instant: Date, timeZone: string): string {
  return isoDate(wallTimeAt(instant.getTime(), timeZone));
}

/** Holidays from `today` (inclusive) up to `days` ahead. */
export function upcomingHolidays(country: Country, today: string, days: number): Holiday[] {
  const year = Number(today.slice(0, 4));
  const end = shift(year, Number(today.slice(5, 7)), Number(today.slice(8, 10)), days);
  return [...publicHolidays(country, year), ...publicHolidays(country, year + 1), ...publicHolidays(country, year + 2)].filter(
    (h) => h.date >= today && h.date <= end,
  );
}

/** The weekday (0 = Sunday) of a 'YYYY-MM-DD' date. */
export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** Adds days to a 'YYYY-MM-DD' date. */
export function addDays(date: string, days: number): string {
  return shift(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)), days);
}

/** The instant a local wall-clock time ('YYYY-MM-DD', 'HH:MM') happens in a time zone. */
export function zonedTime(date: string, time: string, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  const instant = instantOfWallTime({ year, month, day, hour, minute }, timeZone);
  if (instant === null) throw new Error(`${date} ${time} does not happen in ${timeZone}`);
  return new Date(instant);
}
