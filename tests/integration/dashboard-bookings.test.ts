import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { dealerships } from '@/modules/tenancy/tenancy.schema';
import { bookings, locations, specialHours } from '@/modules/locations/locations.schema';
import { getAvailableBookingSlots, type AvailableBookings } from '@/modules/locations/locations.bookings';
import { callRoute, seedDashboardWorld, type DashboardWorld } from '@/modules/dashboard/dashboard.test-support';
import * as serviceBookings from '@/app/(dashboard)/dealerships/[id]/available_service_bookings.json/route';
import * as appointmentBookings from '@/app/(dashboard)/dealerships/[id]/available_appointment_bookings.json/route';

function slotsOf(result: AvailableBookings | null, locationName: string): string[] {
  const location = result?.locations.find((l) => l.location_name === locationName);
  if (!location) throw new Error(`no location ${locationName} in ${JSON.stringify(result?.locations.map((l) => l.location_name))}`);
  return location.slots;
}

const onDate = (slots: string[], date: string) => slots.filter((s) => s.startsWith(date));

describe('available booking slots', () => {
  let db: Db;
  let w: DashboardWorld;
  let dstDealershipId: number;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedDashboardWorld(db);
    // A dealership whose yard opens across the small hours of Sunday, where clocks change.
    const [dealership] = await db
      .insert(dealerships)
      .values({ websiteId: w.a.websiteId, slug: 'night-owl-dealer', name: 'Night Owl' })
      .returning({ id: dealerships.id });
    dstDealershipId = dealership.id;
    await db.insert(locations).values([
      {
        websiteId: w.a.websiteId,
        dealershipId: dealership.id,
        name: 'Night Owl Yard',
        slug: 'night-owl-yard',
        locationType: 'sales',
        timeZone: 'Australia/Sydney',
        openingHours: [
          { weekday: 0, status: 'Open', open: '01:00', close: '04:00' },
          ...[1, 2, 3, 4, 5].map((weekday) => ({ weekday, status: 'Open' as const, open: '09:00', close: '10:00' })),
        ],
      },
      {
        websiteId: w.a.websiteId,
        dealershipId: dealership.id,
        name: 'Broken Data Yard',
        slug: 'broken-yard',
        locationType: 'sales',
        timeZone: 'Not/AZone',
        openingHours: [{ weekday: 1, status: 'Open', open: 'nine', close: '17:00' }, null, 'junk', { weekday: 2, status: 'Open', open: '09:00', close: '09:30' }] as never,
      },
    ]);
  });

  it('gives 30-minute slots from opening to closing on the next 14 days of a sales location, in its time zone', async () => {
    // Monday 23 November 2026, 00:00 in Sydney (AEDT, +11:00).
    const now = new Date('2026-11-23T00:00:00+11:00');
    const result = await getAvailableBookingSlots(w.a.tenant, w.a.dealershipId, 'appointment', { now });
    expect(result).toMatchObject({ dealership_id: w.a.dealershipId, kind: 'appointment', slot_minutes: 30, days: 14 });
    // The sales location only: not the service location, not the hidden one.
    expect(result!.locations.map((l) => l.location_name)).toEqual(['alpha-motors Sales']);
    const slots = slotsOf(result, 'alpha-motors Sales');
    const monday = onDate(slots, '2026-11-23');
    expect(monday).toHaveLength(16);
    expect(monday[0]).toBe('2026-11-23T09:00:00+11:00');
    expect(monday.at(-1)).toBe('2026-11-23T16:30:00+11:00');
    expect(onDate(slots, '2026-11-28')).toEqual([
      '2026-11-28T09:00:00+11:00', '2026-11-28T09:30:00+11:00', '2026-11-28T10:00:00+11:00',
      '2026-11-28T10:30:00+11:00', '2026-11-28T11:00:00+11:00', '2026-11-28T11:30:00+11:00',
    ]);
    expect(onDate(slots, '2026-11-29')).toEqual([]); // Sunday: closed
    expect(onDate(slots, '2026-12-07')).toEqual([]); // day 15: outside the window
    expect(slots).toHaveLength(10 * 16 + 2 * 6);
  });

  it('gives service slots at service locations only', async () => {
    const now = new Date('2026-11-23T00:00:00+11:00');
    const result = await getAvailableBookingSlots(w.a.tenant, w.a.dealershipId, 'service', { now });
    expect(result!.locations.map((l) => l.location_name)).toEqual(['alpha-motors Service']);
  });

  it('leaves out times already past', async () => {
    const now = new Date('2026-11-23T10:10:00+11:00');
    const slots = slotsOf(await getAvailableBookingSlots(w.a.tenant, w.a.dealershipId, 'appointment', { now }), 'alpha-motors Sales');
    expect(onDate(slots, '2026-11-23')[0]).toBe('2026-11-23T10:30:00+11:00');
  });

  it('leaves out slots a booking holds, of that kind and location only', async () => {
    await db.insert(bookings).values([
      { websiteId: w.a.websiteId, dealershipId: w.a.dealershipId, locationId: w.a.salesLocationId, kind: 'appointment', startsAt: new Date('2026-11-24T11:00:00+11:00') },
      // Off the grid: overlaps 13:00 and 13:30.
      { websiteId: w.a.websiteId, dealershipId: w.a.dealershipId, locationId: w.a.salesLocationId, kind: 'appointment', startsAt: new Date('2026-11-24T13:15:00+11:00') },
      // A service booking does not take an appointment slot.
      { websiteId: w.a.websiteId, dealershipId: w.a.dealershipId, locationId: w.a.serviceLocationId, kind: 'service', startsAt: new Date('2026-11-24T15:00:00+11:00') },
    ]);
    const now = new Date('2026-11-23T00:00:00+11:00');
    const tuesday = onDate(slotsOf(await getAvailableBookingSlots(w.a.tenant, w.a.dealershipId, 'appointment', { now }), 'alpha-motors Sales'), '2026-11-24');
    expect(tuesday).not.toContain('2026-11-24T11:00:00+11:00');
    expect(tuesday).not.toContain('2026-11-24T13:00:00+11:00');
    expect(tuesday).not.toContain('2026-11-24T13:30:00+11:00');
    expect(tuesday).toContain('2026-11-24T15:00:00+11:00');
    expect(tuesday).toHaveLength(13);
    const service = onDate(slotsOf(await getAvailableBookingSlots(w.a.tenant, w.a.dealershipId, 'service', { now }), 'alpha-motors Service'), '2026-11-24');
    expect(service).not.toContain('2026-11-24T15:00:00+11:00');
    expect(service).toHaveLength(15);
  });

  it('closes on special-hours closed dates and uses shortened special hours', async () => {
    // Monday 21 December 2026. Seeded: sales closed on the 25th, service open 09:00–12:00 on the 24th.
    const now = new Date('2026-12-21T08:00:00+11:00');
    const sales = slotsOf(await getAvailableBookingSlots(w.a.tenant, w.a.dealershipId, 'appointment', { now }), 'alpha-motors Sales');
    expect(onDate(sales, '2026-12-25')).toEqual([]);
    expect(onDate(sales, '2026-12-24')).toHaveLength(16);
    const service = slotsOf(await getAvailableBookingSlots(w.a.tenant, w.a.dealershipId, 'service', { now }), 'alpha-motors Service');
    expect(onDate(service, '2026-12-24')).toHaveLength(6);
    expect(onDate(service, '2026-12-24').at(-1)).toBe('2026-12-24T11:30:00+11:00');
    expect(onDate(service, '2026-12-25')).toHaveLength(16);
    // A special Open day on a normally closed Sunday opens it.
    await db.insert(specialHours).values({ websiteId: w.a.websiteId, locationId: w.a.salesLocationId, date: '2026-12-27', status: 'Open', startHour: '10:00', endHour: '11:00' });
    const again = slotsOf(await getAvailableBookingSlots(w.a.tenant, w.a.dealershipId, 'appointment', { now }), 'alpha-motors Sales');
    expect(onDate(again, '2026-12-27')).toEqual(['2026-12-27T10:00:00+11:00', '2026-12-27T10:30:00+11:00']);
  });

  it('is right across the start of daylight saving (Sydney, first Sunday of October)', async () => {
    // Thursday 1 October 2026, AEST (+10:00). Clocks go from 02:00 to 03:00 on Sunday 4 October.
    const now = new Date('2026-10-01T00:00:00+10:00');
    const slots = slotsOf(await getAvailableBookingSlots(w.a.tenant, dstDealershipId, 'appointment', { now }), 'Night Owl Yard');
    expect(onDate(slots, '2026-10-04')).toEqual([
      '2026-10-04T01:00:00+10:00',
      '2026-10-04T01:30:00+10:00',
      // 02:00 and 02:30 do not exist that night.
      '2026-10-04T03:00:00+11:00',
      '2026-10-04T03:30:00+11:00',
    ]);
    expect(onDate(slots, '2026-10-02')).toEqual(['2026-10-02T09:00:00+10:00', '2026-10-02T09:30:00+10:00']);
    expect(onDate(slots, '2026-10-05')).toEqual(['2026-10-05T09:00:00+11:00', '2026-10-05T09:30:00+11:00']);
    // Friday 09:00 to Monday 09:00 local is 3 days less the hour lost.
    expect(Date.parse('2026-10-05T09:00:00+11:00') - Date.parse('2026-10-02T09:00:00+10:00')).toBe(3 * 86_400_000 - 3_600_000);
    // Every slot is a distinct instant in increasing order.
    const instants = slots.map(Date.parse);
    expect([...instants].sort((a, b) => a - b)).toEqual(instants);
  });

  it('is right across the end of daylight saving (Sydney, first Sunday of April)', async () => {
    // Clocks go from 03:00 back to 02:00 on Sunday 5 April 2026; a repeated time is offered once (its first occurrence).
    const now = new Date('2026-04-02T00:00:00+11:00');
    const slots = slotsOf(await getAvailableBookingSlots(w.a.tenant, dstDealershipId, 'appointment', { now }), 'Night Owl Yard');
    expect(onDate(slots, '2026-04-05')).toEqual([
      '2026-04-05T01:00:00+11:00',
      '2026-04-05T01:30:00+11:00',
      '2026-04-05T02:00:00+11:00',
      '2026-04-05T02:30:00+11:00',
      '2026-04-05T03:00:00+10:00',
      '2026-04-05T03:30:00+10:00',
    ]);
    expect(onDate(slots, '2026-04-06')[0]).toBe('2026-04-06T09:00:00+10:00');
  });

  it('uses each location its own time zone (Perth has no daylight saving)', async () => {
    const now = new Date('2026-10-01T00:00:00+08:00');
    const slots = slotsOf(await getAvailableBookingSlots(w.b.tenant, w.b.dealershipId, 'appointment', { now }), 'beta-cars Sales');
    expect(onDate(slots, '2026-10-05')[0]).toBe('2026-10-05T09:00:00+08:00');
    expect(slots.every((s) => s.endsWith('+08:00'))).toBe(true);
  });

  it('survives unreadable opening hours and an unknown time zone (falls back to the website zone)', async () => {
    const now = new Date('2026-11-23T00:00:00+11:00');
    const result = await getAvailableBookingSlots(w.a.tenant, dstDealershipId, 'appointment', { now });
    const broken = result!.locations.find((l) => l.location_name === 'Broken Data Yard')!;
    expect(broken.time_zone).toBe('Australia/Sydney');
    expect(broken.slots).toEqual(['2026-11-24T09:00:00+11:00', '2026-12-01T09:00:00+11:00']);
  });

  it("answers null for another website's dealership", async () => {
    expect(await getAvailableBookingSlots(w.a.tenant, w.b.dealershipId, 'service')).toBeNull();
  });

  it('is served at both endpoints with the key of the dealership', async () => {
    const service = await callRoute(serviceBookings.GET, { id: String(w.a.dealershipId) }, { key: w.a.key });
    expect(service.status).toBe(200);
    expect(service.headers.get('content-type')).toMatch(/^application\/json/);
    const serviceBody = await service.json();
    expect(serviceBody).toMatchObject({ dealership_id: w.a.dealershipId, kind: 'service' });
    expect(serviceBody.locations[0]).toMatchObject({ location_id: w.a.serviceLocationId, location_name: 'alpha-motors Service', time_zone: 'Australia/Sydney' });
    for (const slot of serviceBody.locations[0].slots) expect(slot).toMatch(/^\d{4}-\d\d-\d\dT\d\d:[03]0:00\+1[01]:00$/);
    expect(serviceBody.locations[0].slots.length).toBeGreaterThan(50);
    const appointment = await callRoute(appointmentBookings.GET, { id: String(w.a.dealershipId) }, { key: w.a.key });
    expect((await appointment.json()).locations[0].location_id).toBe(w.a.salesLocationId);
    // Another dealership of the same website: the key's website, so answered.
    expect((await callRoute(appointmentBookings.GET, { id: String(dstDealershipId) }, { key: w.a.key })).status).toBe(200);
    expect((await callRoute(appointmentBookings.GET, { id: '999999' }, { key: w.a.key })).status).toBe(404);
  });
});
