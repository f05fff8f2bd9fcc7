import type { Estimate } from '../vehicles.estimate';
import type { LookupAnswer } from '../vehicles.types';

/** The browser side of the vehicle lookup and the instant estimate (POST /api/nevdis, /api/simple-autograb-lookup). */

export type EstimateVehicle = { make: string; model: string; year: number; km: number; state?: string; vin?: string };
export type ApiAnswer<T> = { ok: true; value: T } | { ok: false; error: string; fields: Record<string, string> };

export const VEHICLE_CLIENT_MESSAGES = {
  lookupWhat: 'Enter your rego and state, or a VIN, to look your car up.',
  unavailable: 'The lookup is not available just now. Please type your car’s details.',
  estimateNeeds: 'Enter the make, model, year and kilometres to see an instant estimate.',
} as const;

async function postJson<T>(url: string, body: unknown): Promise<ApiAnswer<T>> {
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });
    const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (response.ok) return { ok: true, value: json as T };
    const fields = (json.fields ?? {}) as Record<string, string>;
    return { ok: false, error: typeof json.error === 'string' ? json.error : VEHICLE_CLIENT_MESSAGES.unavailable, fields };
  } catch {
    return { ok: false, error: VEHICLE_CLIENT_MESSAGES.unavailable, fields: {} };
  }
}

export function lookupVehicle(query: { vin: string } | { rego: string; state: string }): Promise<ApiAnswer<LookupAnswer>> {
  return postJson('/api/nevdis', query);
}

export function fetchEstimate(vehicle: EstimateVehicle): Promise<ApiAnswer<Estimate>> {
  return postJson('/api/simple-autograb-lookup', vehicle);
}

/** The estimate as lead fields the dealer reads in the enquiry email. */
export function estimateLeadFields(estimate: Estimate, money: (n: number) => string): Record<string, string | number> {
  if (!estimate.ok) return { 'Instant estimate': 'not enough data' };
  return {
    'Instant estimate retail': `${money(estimate.retail.low)} – ${money(estimate.retail.high)} (median ${money(estimate.retail.median)})`,
    'Instant estimate trade-in': `${money(estimate.tradeIn.low)} – ${money(estimate.tradeIn.high)}`,
    'Instant estimate comparables': estimate.comparables,
  };
}

/** The estimate as a flat block of valuation data (POST /api/miscellaneous, column simple_autograb). */
export function estimateData(estimate: Estimate): Record<string, string | number | boolean | null> {
  if (!estimate.ok) return { ok: false, reason: estimate.reason, comparables: estimate.comparables };
  return {
    ok: true,
    retail_low: estimate.retail.low,
    retail_median: estimate.retail.median,
    retail_high: estimate.retail.high,
    trade_in_low: estimate.tradeIn.low,
    trade_in_median: estimate.tradeIn.median,
    trade_in_high: estimate.tradeIn.high,
    state_median: estimate.state?.median ?? null,
    comparables: estimate.comparables,
  };
}

/** An estimate for the form's vehicle values, when they are complete enough to ask; null otherwise. */
export async function estimateForValues(valueOf: (name: string) => string): Promise<Estimate | null> {
  const make = valueOf('make').trim();
  const model = valueOf('model').trim();
  const year = Number(valueOf('year'));
  const kmText = valueOf('km').replace(/[\s,]/g, '');
  if (!make || !model || !Number.isInteger(year) || !/^\d{1,7}$/.test(kmText)) return null;
  const state = valueOf('state').trim();
  const answer = await fetchEstimate({ make, model, year, km: Number(kmText), ...(state ? { state } : {}) });
  return answer.ok ? answer.value : null;
}
