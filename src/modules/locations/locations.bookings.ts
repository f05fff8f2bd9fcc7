import 'server-only';
import { and, asc, eq, gte, inArray, lt } from 'drizzle-orm';
import { getDb } from '@/db';
import { logger } from '@/lib/logger';
import { dealerships } from '../tenancy/tenancy.schema';
import type { Tenant } from '../tenancy/tenancy.types';
import { bookings, locations, specialHours } from './locations.schema';
import type { OpeningHoursEntry } from './locations.types';
import { intervalsOn, type Interval } from './locations.hours';
import { addDays, formatInZone, instantOfWallTime, isoDate, isValidTimeZone, wallTimeAt } from '@/lib/time-zone';

export { parseClock } from './locations.hours';

/**
 * Available service and appointment slots (Dashboard API available_*_bookings): for each visible
 * location of the dealership that takes this kind of booking, 30-minute slots from opening to
 * closing on each of the next 14 days, in the location's own time zone (correct across daylight
 * saving changes), without special-hours closures (and with their shortened hours when open),
 * past times, and slots a booking already holds (one booking per location and slot).
 */

export type BookingKind = 'service' | 'appointment';

export const BOOKING_SLOT_MINUTES = 30;
export const BOOKING_DAYS = 14;

/** Service bookings go to service, parts and service-and-parts locations; appointments to sales ('' means sales). */
export const LOCATION_TYPES_FOR_BOOKING: Record<BookingKind, string[]> = {
  service: ['service', 'parts', 'service-and-parts'],
  appointment: ['sales', ''],
};

export type LocationSlots = {
  location_id: number;
  location_name: string;
  time_zone: string;
  /** Local wall time with the zone's offset at that instant, e.g. 2026-11-23T09:00:00+11:00. */
  slots: string[];
};

export type AvailableBookings = {
  dealership_id: number;
  kind: BookingKind;
  slot_minutes: number;
  days: number;
  locations: LocationSlots[];
};

type SpecialDay = { status: 'Open' | 'Closed'; startHour: string | null; endHour: string | null };

/** Opening intervals (minutes after local midnight) of one local date. */
export function openingIntervals(openingHours: unknown, weekday: number, special: SpecialDay | undefined): Interval[] {
  return intervalsOn(Array.isArray(openingHours) ? (openingHours as OpeningHoursEntry[]) : [], weekday, special);
}

/**
 * Pure: the free slots of one location, as instants (ms), for `days` local dates from the local
 * date of `now`.
 */
export function computeLocationSlots(options: {
  timeZone: string;
  openingHours: unknown;
  specialHoursByDate: Map<string, SpecialDay>;
  bookedStarts: number[];
  now: Date;
  days?: number;
  slotMinutes?: number;
}): number[] {
  const { timeZone, now } = options;
  const days = options.days ?? BOOKING_DAYS;
  const slotMs = (options.slotMinutes ?? BOOKING_SLOT_MINUTES) * 60_000;
  const today = wallTimeAt(now.getTime(), timeZone);
  const booked = [...options.bookedStarts].sort((a, b) => a - b);
  const overlapsBooking = (start: number) => booked.some((b) => b < start + slotMs && start < b + slotMs);
  const slots: number[] = [];
  const seen = new Set<number>();
  for (let offset = 0; offset < days; offset++) {
    const date = addDays(today, offset);
    const intervals = openingIntervals(options.openingHours, date.weekday, options.specialHoursByDate.get(isoDate(date)));
    for (const { open, close } of intervals) {
      for (let minute = open; minute + slotMs / 60_000 <= close; minute += slotMs / 60_000) {
        const instant = instantOfWallTime(
          { year: date.year, month: date.month, day: date.day, hour: Math.floor(minute / 60), minute: minute % 60 },
          timeZone,
        );
        if (instant == null || instant <= now.getTime() || seen.has(instant) || overlapsBooking(instant)) continue;
        seen.add(instant);
        slots.push(instant);
      }
    }
  }
  return slots.sort((a, b) => a - b);
}

/**
 * Available booking slots of a dealership of the tenant's website; null when the dealership is not
 * one of this website's.
 */
export async function getAvailableBookingSlots(
  tenant: Tenant,
  dealershipId: number,
  kind: BookingKind,
  options: { now?: Date; days?: number } = {},
): Promise<AvailableBookings | null> {
  const now = options.now ?? new Date();
  const days = Math.min(Math.max(Math.trunc(options.days ?? BOOKING_DAYS), 1), 62);
  const db = await getDb();
  const [dealership] = await db
    .select({ id: dealerships.id })
    .from(dealerships)
    .where(and(eq(dealerships.websiteId, tenant.id), eq(dealerships.id, dealershipId)));
  if (!dealership) return null;

  const rows = await db
    .select({ id: locations.id, name: locations.name, timeZone: locations.timeZone, openingHours: locations.openingHours })
    .from(locations)
    .where(
      and(
        eq(locations.websiteId, tenant.id),
        eq(locations.dealershipId, dealershipId),
        eq(locations.visible, true),
        inArray(locations.locationType, LOCATION_TYPES_FOR_BOOKING[kind]),
      ),
    )
    .orderBy(asc(locations.position), asc(locations.id));
  if (rows.length === 0) return { dealership_id: dealershipId, kind, slot_minutes: BOOKING_SLOT_MINUTES, days, locations: [] };

  const ids = rows.map((r) => r.id);
  // A day either side covers every time zone's local dates.
  const fromDate = isoDate(addDays(wallTimeAt(now.getTime() - 86_400_000, 'UTC'), 0));
  const toDate = isoDate(addDays(wallTimeAt(now.getTime(), 'UTC'), days + 1));
  const [special, booked] = await Promise.all([
    db
      .select()
      .from(specialHours)
      .where(
        and(
          eq(specialHours.websiteId, tenant.id),
          inArray(specialHours.locationId, ids),
          gte(specialHours.date, fromDate),
          lt(specialHours.date, toDate),
        ),
      ),
    db
      .select({ locationId: bookings.locationId, startsAt: bookings.startsAt })
      .from(bookings)
      .where(
        and(
          eq(bookings.websiteId, tenant.id),
          eq(bookings.dealershipId, dealershipId),
          eq(bookings.kind, kind),
          inArray(bookings.locationId, ids),
          gte(bookings.startsAt, new Date(now.getTime() - 86_400_000)),
          lt(bookings.startsAt, new Date(now.getTime() + (days + 2) * 86_400_000)),
        ),
      ),
  ]);

  const result: LocationSlots[] = rows.map((location) => {
    let timeZone = location.timeZone;
    if (!isValidTimeZone(timeZone)) {
      logger.warn({ locationId: location.id, timeZone }, 'location has an unknown time zone; using the website time zone');
      timeZone = isValidTimeZone(tenant.config.timeZone) ? tenant.config.timeZone : 'Australia/Sydney';
    }
    const specialHoursByDate = new Map<string, SpecialDay>(
      special.filter((s) => s.locationId === location.id).map((s) => [s.date, { status: s.status, startHour: s.startHour, endHour: s.endHour }]),
    );
    const slots = computeLocationSlots({
      timeZone,
      openingHours: location.openingHours,
      specialHoursByDate,
      bookedStarts: booked.filter((b) => b.locationId === location.id).map((b) => b.startsAt.getTime()),
      now,
      days,
    });
    return {
      location_id: location.id,
      location_name: location.name,
      time_zone: timeZone,
      slots: slots.map((instant) => formatInZone(instant, timeZone)),
    };
  });
  return { dealership_id: dealershipId, kind, slot_minutes: BOOKING_SLOT_MINUTES, days, locations: result };
}
