import 'server-only';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { rowsOf } from '@/db/rows';
import { cars } from '../stock/stock.schema';
import { carAlertState, visibleCarsWhere } from '@/modules/stock/server';
import { analyticsEvents } from '../widgets/widgets.schema';
import type { Tenant } from '../tenancy/tenancy.types';
import { favourites } from './identity.schema';

/**
 * A customer's saved cars, newest first: the SPEC §3 Favourite record (id, name, slug, make,
 * model, primary_image_url) and what the garage page shows beside it: the current price and
 * status, whether it is reserved, and the price when saved.
 */
export async function watchlist(tenant: Tenant, customerId: string) {
  const db = await getDb();
  return db
    .select({
      id: cars.id,
      name: cars.name,
      slug: cars.slug,
      make: cars.make,
      model: cars.model,
      primary_image_url: cars.primaryImageUrl,
      price: cars.price,
      status: cars.status,
      reserved: cars.reserved,
      saved_price: favourites.savedPrice,
    })
    .from(favourites)
    .innerJoin(cars, and(eq(cars.websiteId, favourites.websiteId), eq(cars.id, favourites.carId)))
    .where(and(eq(favourites.websiteId, tenant.id), eq(favourites.customerId, customerId)))
    .orderBy(desc(favourites.createdAt));
}

/** SPEC §9 event ids of the garage: a car saved (20) and removed (21). */
export const GARAGE_EVENTS = { saved: 20, removed: 21 } as const;
export const GARAGE_MAX_CARS = 200;

/**
 * Saves cars to a customer's garage: only cars the website lists (visibleCarsWhere), once each,
 * at most GARAGE_MAX_CARS; records event 20 for each newly saved. Returns how many were added.
 */
export async function saveCars(tenant: Tenant, customerId: string, carIds: number[], now = new Date()): Promise<number> {
  if (carIds.length === 0) return 0;
  const db = await getDb();
  const listed = await db
    .select({ id: cars.id, price: cars.price, status: cars.status, reserved: cars.reserved, showOnDealerWebsite: cars.showOnDealerWebsite })
    .from(cars)
    .where(and(eq(cars.websiteId, tenant.id), inArray(cars.id, carIds.slice(0, GARAGE_MAX_CARS)), visibleCarsWhere(tenant, now)));
  if (listed.length === 0) return 0;
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(favourites).where(and(eq(favourites.websiteId, tenant.id), eq(favourites.customerId, customerId)));
  const room = Math.max(0, GARAGE_MAX_CARS - count);
  const added = await db
    .insert(favourites)
    .values(listed.slice(0, room).map((car) => ({ websiteId: tenant.id, customerId, carId: car.id, savedPrice: car.price, notifiedState: carAlertState(car) })))
    .onConflictDoNothing({ target: [favourites.customerId, favourites.carId] })
    .returning({ carId: favourites.carId });
  if (added.length) await db.insert(analyticsEvents).values(added.map((row) => ({ websiteId: tenant.id, category: GARAGE_EVENTS.saved, eventProperties: { car_id: row.carId, customer_id: customerId } })));
  return added.length;
}

/** Removes a car from the garage (event 21); false when it was not there. */
export async function removeCar(tenant: Tenant, customerId: string, carId: number): Promise<boolean> {
  const db = await getDb();
  const removed = await db
    .delete(favourites)
    .where(and(eq(favourites.websiteId, tenant.id), eq(favourites.customerId, customerId), eq(favourites.carId, carId)))
    .returning({ carId: favourites.carId });
  if (removed.length) await db.insert(analyticsEvents).values({ websiteId: tenant.id, category: GARAGE_EVENTS.removed, eventProperties: { car_id: carId, customer_id: customerId } });
  return removed.length > 0;
}

export type SignedIn = { user: { id: string; phone: string; first_name: string | null; last_name: string | null; email: string | null }; watchlist: Awaited<ReturnType<typeof watchlist>> };

/**
 * GET /api/auth in one statement: the customer of a verified token, whether the sign-in is still
 * alive, and the saved cars (the page's only call for the visitor's state, so one round trip).
 * Null when the customer is gone or the session was signed out.
 */
export async function signedInState(tenant: Tenant, customerId: string, familyId: string): Promise<SignedIn | null> {
  const db = await getDb();
  const [row] = rowsOf<{ user: SignedIn['user']; alive: boolean; watchlist: (SignedIn['watchlist'][number] & { saved_at: string })[] }>(
    await db.execute(sql`select json_build_object('id', c.id, 'phone', c.phone, 'first_name', c.first_name, 'last_name', c.last_name, 'email', c.email) as user,
        exists (select 1 from sessions s where s.family_id = ${familyId} and s.website_id = ${tenant.id} and s.revoked_at is null) as alive,
        coalesce((select json_agg(w order by w.saved_at desc) from (
          select car.id, car.name, car.slug, car.make, car.model, car.primary_image_url, car.price, car.status, car.reserved, f.saved_price, f.created_at as saved_at
          from favourites f join cars car on car.website_id = f.website_id and car.id = f.car_id
          where f.website_id = ${tenant.id} and f.customer_id = c.id) w), '[]'::json) as watchlist
      from customers c where c.website_id = ${tenant.id} and c.id = ${customerId}`),
  );
  if (!row || !row.alive) return null;
  return { user: row.user, watchlist: row.watchlist.map(({ saved_at: _savedAt, ...car }) => car) };
}
