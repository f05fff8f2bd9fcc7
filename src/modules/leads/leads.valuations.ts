import 'server-only';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/db';
import { NotFoundError, ValidationError } from '@/lib/http';
import { cars } from '../stock/stock.schema';
import type { Tenant } from '../tenancy/tenancy.types';
import { leads, valuations } from './leads.schema';
import type { ValuationPayload } from './form-rules/schemas';
import { consumeLimits, HOUR_MS, type RateLimit } from '@/lib/rate-limit';
import { LIMIT_MESSAGES } from './leads.limits';
import { editTokenMatches, newEditToken } from './leads.tokens';

/**
 * Valuations (trade-in, sell my car) of a website; the lead and car they name must be its own. A
 * valuation is changed only with the edit token its POST answered, and linked to a lead only with
 * that lead's token (leads.tokens.ts); every call counts against the per-IP valuation limit.
 */

export type ValuationCall = { ip: string | null; editToken: string | null };
export type SavedValuation = { id: string; token: string | null };

/** Valuation saves (POST, PUT, miscellaneous) per IP per hour. */
export const VALUATIONS_PER_IP_PER_HOUR = 60;

function valuationLimits(tenant: Tenant, ip: string | null): RateLimit[] {
  if (!ip) return [];
  return [{ key: `valuation-ip:${tenant.id}:${ip}`, max: VALUATIONS_PER_IP_PER_HOUR, durationMs: HOUR_MS, message: LIMIT_MESSAGES.ip }];
}

const COLUMNS = new Set(['id', 'lead_id', 'car_id', 'rego', 'state', 'vin', 'make', 'model', 'year', 'km']);

async function checkRefs(tenant: Tenant, valuation: ValuationPayload, leadToken: string | null): Promise<void> {
  const db = await getDb();
  const errors: Record<string, string> = {};
  if (valuation.lead_id) {
    const [lead] = await db.select({ editTokenHash: leads.editTokenHash }).from(leads).where(and(eq(leads.websiteId, tenant.id), eq(leads.id, valuation.lead_id)));
    if (!lead || !editTokenMatches(leadToken, lead.editTokenHash)) errors['valuation.lead_id'] = 'is not a lead of this website';
  }
  if (valuation.car_id) {
    const [car] = await db.select({ id: cars.id }).from(cars).where(and(eq(cars.websiteId, tenant.id), eq(cars.id, valuation.car_id)));
    if (!car) errors['valuation.car_id'] = 'is not a car of this website';
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

function columnsOf(valuation: ValuationPayload) {
  const data = Object.fromEntries(Object.entries(valuation).filter(([key, value]) => !COLUMNS.has(key) && value !== undefined));
  return {
    leadId: valuation.lead_id,
    carId: valuation.car_id,
    rego: valuation.rego,
    state: valuation.state,
    vin: valuation.vin?.toUpperCase(),
    make: valuation.make,
    model: valuation.model,
    year: valuation.year,
    km: valuation.km,
    data,
  };
}

/** POST: a new valuation; the request's edit token, when it names a lead, is that lead's. */
export async function createValuation(tenant: Tenant, valuation: ValuationPayload, call: ValuationCall): Promise<SavedValuation> {
  const db = await getDb();
  await consumeLimits(db, valuationLimits(tenant, call.ip));
  await checkRefs(tenant, valuation, call.editToken);
  const editToken = newEditToken();
  const [row] = await db.insert(valuations).values({ websiteId: tenant.id, ...columnsOf(valuation), editTokenHash: editToken.hash }).returning({ id: valuations.id });
  return { id: row.id, token: editToken.token };
}

/** PUT: fields given replace the stored ones; data keys merge. Another website's valuation is 404. */
export async function updateValuation(tenant: Tenant, valuation: ValuationPayload, call: ValuationCall): Promise<SavedValuation> {
  if (!valuation.id) throw new ValidationError({ 'valuation.id': '*This is a required field.' });
  const db = await getDb();
  await consumeLimits(db, valuationLimits(tenant, call.ip));
  // A lead_id given here was linked by the POST, with the lead's token; it cannot be changed.
  if (valuation.lead_id) throw new ValidationError({ 'valuation.lead_id': 'cannot be changed' });
  await checkRefs(tenant, valuation, null);
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(valuations).where(and(eq(valuations.websiteId, tenant.id), eq(valuations.id, valuation.id!))).for('update');
    if (!current || !editTokenMatches(call.editToken, current.editTokenHash)) throw new NotFoundError();
    const { data, ...columns } = columnsOf(valuation);
    const set = Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
    await tx
      .update(valuations)
      .set({ ...set, data: { ...current.data, ...data }, updatedAt: new Date() })
      .where(and(eq(valuations.websiteId, tenant.id), eq(valuations.id, current.id)));
    return { id: current.id, token: null };
  });
}

/** POST /api/miscellaneous: saves `data` under `column_name` in a valuation's data. */
export async function saveMiscellaneous(tenant: Tenant, input: { valuation_id?: string; column_name: string; data: Record<string, unknown> }, call: ValuationCall): Promise<SavedValuation> {
  const db = await getDb();
  await consumeLimits(db, valuationLimits(tenant, call.ip));
  if (!input.valuation_id) {
    const editToken = newEditToken();
    const [row] = await db.insert(valuations).values({ websiteId: tenant.id, data: { [input.column_name]: input.data }, editTokenHash: editToken.hash }).returning({ id: valuations.id });
    return { id: row.id, token: editToken.token };
  }
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(valuations).where(and(eq(valuations.websiteId, tenant.id), eq(valuations.id, input.valuation_id!))).for('update');
    if (!current || !editTokenMatches(call.editToken, current.editTokenHash)) throw new NotFoundError();
    await tx
      .update(valuations)
      .set({ data: { ...current.data, [input.column_name]: input.data }, updatedAt: new Date() })
      .where(and(eq(valuations.websiteId, tenant.id), eq(valuations.id, current.id)));
    return { id: current.id, token: null };
  });
}
