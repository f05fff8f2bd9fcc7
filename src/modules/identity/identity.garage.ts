import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import { getDb } from '@/db';
import { cars } from '../stock/stock.schema';
import type { Tenant } from '../tenancy/tenancy.types';
import { favourites } from './identity.schema';

/** The SPEC §3 Favourite record of a customer's saved cars, newest first. */
export async function watchlist(tenant: Tenant, customerId: string) {
  const db = await getDb();
  return db
    .select({ id: cars.id, name: cars.name, slug: cars.slug, make: cars.make, model: cars.model, primary_image_url: cars.primaryImageUrl })
    .from(favourites)
    .innerJoin(cars, and(eq(cars.websiteId, favourites.websiteId), eq(cars.id, favourites.carId)))
    .where(and(eq(favourites.websiteId, tenant.id), eq(favourites.customerId, customerId)))
    .orderBy(desc(favourites.createdAt));
}
