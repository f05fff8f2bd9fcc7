import type { bookings, specialHours } from '@/modules/locations/locations.schema';
import { addDays, localDate, upcomingHolidays, weekdayOf, zonedTime, type Holiday } from './hours';
import type { LocationSeed, SiteSeed } from './sites';

export type SpecialHoursRow = typeof specialHours.$inferInsert;
export type BookingRow = typeof bookings.$inferInsert;

/** How far ahead holiday hours are published. */
export const HOLIDAY_WINDOW_DAYS = 180;

type Hours = { status: 'Open' | 'Closed'; start: string | null; end: string | null };
const closed: Hours = { status: 'Closed', start: null, end: null };
const open = (start: string, end: string): Hours => ({ status: 'Open', start, end });

/** What a sales yard does on each public holiday; service workshops and appointment-only sites close. */
function holidayHours(holiday: Holiday, location: LocationSeed): Hours {
  if (location.settings.appointmentOnly || location.locationType.includes('service') || location.locationType === 'parts') return closed;
  switch (holiday.name) {
    case 'Boxing Day':
      return open('10:00', '16:00');
    case 'Australia Day':
    case "King's Birthday":
    case 'Matariki':
    case 'Labour Day':
    case 'Waitangi Day':
    case 'Easter Saturday':
      return open('10:00', '16:00');
    case 'Anzac Day':
      // Trading from 1 pm, as on Anzac Day morning shops stay shut.
      return open('13:00', '17:00');
    case 'Memorial Day':
    case 'Labor Day':
      return open('10:00', '18:00');
    case 'Christmas Eve':
      return open('09:00', '15:00');
    default:
      return closed;
  }
}

/** Special hours for the public holidays in the coming months, relative to `now`. */
export function specialHoursFor(site: SiteSeed, now: Date): SpecialHoursRow[] {
  const rows: SpecialHoursRow[] = [];
  for (const location of site.locations) {
    const today = localDate(now, location.timeZone);
    for (const holiday of upcomingHolidays(location.country, today, HOLIDAY_WINDOW_DAYS)) {
      const hours = holidayHours(holiday, location);
      rows.push({
        websiteId: site.id,
        locationId: location.id,
        date: holiday.date,
        status: hours.status,
        startHour: hours.start,
        endHour: hours.end,
        name: holiday.name,
      });
    }
  }
  return rows;
}

/**
 * A few booked slots on the next working days (local time at each location), so availability
 * has something to subtract: service bookings at workshops, appointments at appointment-only sites.
 */
export function bookingsFor(site: SiteSeed, now: Date): BookingRow[] {
  const rows: BookingRow[] = [];
  for (const location of site.locations) {
    const service = location.locationType.includes('service');
    const appointment = location.settings.appointmentOnly === true;
    if (!service && !appointment) continue;
    const times = service ? ['08:00', '09:30', '11:00', '14:00', '08:00', '13:30'] : ['10:00', '14:00'];
    let day = localDate(now, location.timeZone);
    let placed = 0;
    while (placed < times.length) {
      day = addDays(day, 1);
      const weekday = weekdayOf(day);
      const hours = location.openingHours.find((h) => h.weekday === weekday);
      if (!hours || hours.status !== 'Open') continue;
      // Two bookings a day for the first days.
      for (const time of times.slice(placed, placed + 2)) {
        if (hours.open && hours.close && time >= hours.open && time < hours.close) {
          rows.push({
            websiteId: site.id,
            dealershipId: location.dealershipId,
            locationId: location.id,
            kind: service ? 'service' : 'appointment',
            startsAt: zonedTime(day, time, location.timeZone),
            leadId: null,
            createdAt: new Date(now.getTime() - 3 * 86_400_000),
          });
        }
      }
      placed += 2;
    }
  }
  return rows;
}
