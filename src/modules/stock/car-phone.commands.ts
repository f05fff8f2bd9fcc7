import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { cleanUntypedText } from '@/lib/clean-text';
import { z } from 'zod';
import { getDb } from '@/db';
import { locations } from '@/modules/locations/locations.schema';
import { dealerships } from '@/modules/tenancy/tenancy.schema';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { analyticsEvents } from '@/modules/widgets/widgets.schema';
import { writeEvents } from '@/modules/widgets/server';
import { cars } from './stock.schema';
import { locationJoin, visibleCarsWhere } from './stock.queries';

/**
 * The car page's phone reveal (SPEC §7: 'Phone reveal call sends car_id, dealership_id,
 * website_id') and the car_phone_call event. Both are recorded as analytics events in the
 * category of SPEC §9 'click to call' (25), told apart by event_properties.name.
 */

export const CLICK_TO_CALL_EVENT = 25;
const MAX_DB_ID = 2_147_483_647;
const dbId = z.number({ error: 'must be a positive whole number' }).int('must be a positive whole number').min(1, 'must be a positive whole number').max(MAX_DB_ID, 'must be a positive whole number');

export const phoneRevealSchema = z.strictObject({
  car_id: dbId,
  dealership_id: dbId,
  website_id: dbId,
});
export type PhoneRevealInput = z.output<typeof phoneRevealSchema>;

export const carPhoneCallSchema = phoneRevealSchema.extend({
  /** The page the call was made from: nobody typed it, so it is cleaned, never refused. */
  url: z
    .unknown()
    .transform((value) => (typeof value === 'string' ? cleanUntypedText(value, 2000) || undefined : undefined))
    .optional(),
});
export type CarPhoneCallInput = z.output<typeof carPhoneCallSchema>;

/**
 * The phone number behind a listed car of this website (its location's, else its dealership's,
 * else the website's), or null when the ids do not name one: another website's id, another
 * dealership's car, an unlisted car. The same rule as getCarBySlug's phone.
 */
async function carPhone(tenant: Tenant, input: PhoneRevealInput): Promise<{ phone: string; slug: string } | null> {
  if (input.website_id !== tenant.id) return null;
  const db = await getDb();
  const [row] = await db
    .select({ slug: cars.slug, locationPhone: locations.phone, dealershipPhone: dealerships.phone })
    .from(cars)
    .leftJoin(locations, locationJoin)
    .leftJoin(dealerships, and(eq(dealerships.websiteId, cars.websiteId), eq(dealerships.id, cars.dealershipId)))
    .where(and(visibleCarsWhere(tenant, new Date()), eq(cars.id, input.car_id), eq(cars.dealershipId, input.dealership_id)))
    .limit(1);
  if (!row) return null;
  return { slug: row.slug, phone: row.locationPhone || row.dealershipPhone || tenant.phone || '' };
}

/** Written at once through the events writer (not queued): the reveal's token is read back on the next request. */
async function recordEvent(tenant: Tenant, name: 'phone_reveal' | 'car_phone_call', input: PhoneRevealInput, url: string | null, extra: Record<string, string> = {}) {
  await writeEvents([{
    websiteId: tenant.id,
    category: CLICK_TO_CALL_EVENT,
    url: url === null ? null : cleanUntypedText(url, 2000),
    eventProperties: { name, car_id: input.car_id, dealership_id: input.dealership_id, website_id: input.website_id, ...extra },
  }]);
}

/**
 * Records the reveal and answers the full number, the car's slug and a reveal token (the no-JavaScript
 * page shows the number for that token only: wasPhoneRevealed); null when the ids name no car of
 * this website.
 */
export async function revealCarPhone(
  tenant: Tenant,
  input: PhoneRevealInput,
  url: string | null = null,
): Promise<{ phone: string; slug: string; revealToken: string } | null> {
  const car = await carPhone(tenant, input);
  if (car == null) return null;
  const revealToken = randomUUID();
  await recordEvent(tenant, 'phone_reveal', input, url, { reveal_token: revealToken });
  return { ...car, revealToken };
}

const REVEAL_TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const REVEAL_SHOWN_FOR_MS = 15 * 60 * 1000;

/** Whether this car's phone was revealed with this token in the last 15 minutes (the page after a no-JavaScript reveal). */
export async function wasPhoneRevealed(tenant: Tenant, carId: number, token: unknown): Promise<boolean> {
  if (typeof token !== 'string' || !REVEAL_TOKEN.test(token)) return false;
  const db = await getDb();
  const [row] = await db
    .select({ id: analyticsEvents.id })
    .from(analyticsEvents)
    .where(
      and(
        eq(analyticsEvents.websiteId, tenant.id),
        eq(analyticsEvents.category, CLICK_TO_CALL_EVENT),
        gt(analyticsEvents.createdAt, new Date(Date.now() - REVEAL_SHOWN_FOR_MS)),
        sql`${analyticsEvents.eventProperties} @> ${JSON.stringify({ name: 'phone_reveal', car_id: carId, reveal_token: token })}::jsonb`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Records a car_phone_call event; false when the ids name no car of this website. */
export async function recordCarPhoneCall(tenant: Tenant, input: CarPhoneCallInput): Promise<boolean> {
  if ((await carPhone(tenant, input)) == null) return false;
  const { url, ...ids } = input;
  await recordEvent(tenant, 'car_phone_call', ids, url ?? null);
  return true;
}
