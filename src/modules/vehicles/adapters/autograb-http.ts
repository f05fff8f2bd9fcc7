import 'server-only';
import { z } from 'zod';
import type { Estimate } from '../vehicles.estimate';
import { postJson } from '@/lib/http-json';

/**
 * Valuations from Autograb (AUTOGRAB_API_URL, AUTOGRAB_API_KEY): POST {url} with the vehicle,
 * answering retail and trade-in ranges. Kept to the same Estimate shape as the local estimate.
 */

export const AUTOGRAB_TIMEOUT_MS = 10_000;

const range = z.object({ low: z.number(), median: z.number(), high: z.number() });
const answer = z.object({ retail: range, trade_in: range, state: range.nullish(), comparables: z.number().int().nullish() });

export async function valuationFromAutograb(
  config: { url: string; key: string },
  vehicle: { make: string; model: string; year: number; km: number; state: string | null; vin?: string | null },
): Promise<Estimate> {
  const parsed = answer.safeParse(await postJson(config.url, config.key, vehicle, AUTOGRAB_TIMEOUT_MS));
  if (!parsed.success) return { ok: false, reason: 'not enough data', comparables: 0 };
  const { retail, trade_in: tradeIn, state, comparables } = parsed.data;
  return { ok: true, retail, tradeIn, state: state ? { ...state, comparables: 0 } : null, comparables: comparables ?? 0 };
}
