import 'server-only';
import { and, desc, eq, sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { expireHolds, type Reservation } from './checkout.commands';
import { reservationEvents, reservations, type ReservationStatus } from './checkout.schema';

/** Reservations as the dealer's systems read them (Dashboard API); always one website's, one dealership's. */

export function dealerReservationJson(row: Reservation, events: (typeof reservationEvents.$inferSelect)[] = []) {
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    car_id: row.carId,
    car_slug: row.carSlug,
    car_name: row.carName,
    amount: row.amountMinor / 100,
    currency: row.currency,
    provider: row.provider,
    payment_reference: row.providerRef,
    visitor: row.visitor,
    choices: row.choices,
    lead_id: row.leadId,
    message: row.failureMessage,
    hold_expires_at: row.holdExpiresAt.toISOString(),
    held_at: row.heldAt?.toISOString() ?? null,
    captured_at: row.capturedAt?.toISOString() ?? null,
    refunded_at: row.refundedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    events: events.map((e) => ({ from: e.fromStatus, to: e.toStatus, actor: e.actor, reason: e.reason, at: e.createdAt.toISOString() })),
  };
}

export async function listDealershipReservations(websiteId: number, dealershipId: number, options: { page: number; perPage: number; status?: ReservationStatus }) {
  const db = await getDb();
  await expireHolds(db, { websiteId });
  const where = and(eq(reservations.websiteId, websiteId), eq(reservations.dealershipId, dealershipId), options.status ? eq(reservations.status, options.status) : undefined);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(reservations).where(where).orderBy(desc(reservations.createdAt), desc(reservations.id)).limit(options.perPage).offset((options.page - 1) * options.perPage),
    db.select({ total: sql<number>`count(*)::int` }).from(reservations).where(where),
  ]);
  const events = rows.length
    ? await db
        .select()
        .from(reservationEvents)
        .where(and(eq(reservationEvents.websiteId, websiteId), sql`${reservationEvents.reservationId} in (${sql.join(rows.map((r) => sql`${r.id}::uuid`), sql`, `)})`))
        .orderBy(reservationEvents.id)
    : [];
  return {
    reservations: rows.map((row) => dealerReservationJson(row, events.filter((e) => e.reservationId === row.id))),
    page: options.page,
    per_page: options.perPage,
    total: Number(total),
  };
}
