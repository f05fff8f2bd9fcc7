import 'server-only';
import { z } from 'zod';
import type { VehicleIdentity } from '../vehicles.types';
import { postJson } from '@/lib/http-json';

/**
 * Registration lookups through an Australian NEVDIS reseller (NEVDIS_API_URL, NEVDIS_API_KEY):
 * POST {url} {registration, state} or {vin} with a bearer key, answering the vehicle's details.
 * Each call costs money, so the service limits them per client and per website.
 */

export const NEVDIS_TIMEOUT_MS = 10_000;

const answer = z.object({
  vin: z.string().nullish(),
  make: z.string().nullish(),
  model: z.string().nullish(),
  badge: z.string().nullish(),
  year: z.coerce.number().int().nullish(),
  body: z.string().nullish(),
  fuel: z.string().nullish(),
  transmission: z.string().nullish(),
  colour: z.string().nullish(),
});

export async function lookupNevdis(config: { url: string; key: string }, query: { registration: string; state: string } | { vin: string }): Promise<VehicleIdentity | null> {
  const parsed = answer.safeParse(await postJson(config.url, config.key, query, NEVDIS_TIMEOUT_MS));
  if (!parsed.success || !parsed.data.make) return null;
  const v = parsed.data;
  return { vin: v.vin ?? null, make: v.make ?? null, model: v.model ?? null, badge: v.badge ?? null, year: v.year ?? null, body: v.body ?? null, fuel: v.fuel ?? null, transmission: v.transmission ?? null, colour: v.colour ?? null };
}
