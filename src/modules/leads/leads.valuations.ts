import 'server-only';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/db';
import { NotFoundError, ValidationError } from '../dashboard/dashboard.errors';
import { cars } from '../stock/stock.schema';
import type { Tenant } from '../tenancy/tenancy.types';
import { leads, valuations } from './leads.schema';
import type { ValuationPayload } from './leads.validation';

/** Valuations (trade-in, sell my car) of a website; the lead and car they name must be its own. */

const COLUMNS = new Set(['id', 'lead_id', 'car_id', 'rego', 'state', 'vin', 'make', 'model', 'year', 'km']);

async function checkRefs(tenant: Tenant, valuation: ValuationPayload): Promise<void> {
  const db = await getDb();
  const errors: Record<string, string> = {};
  if (valuation.lead_id) {
    const [lead] = await db.select({ id: leads.id }).from(leads).where(and(eq(leads.websiteId, tenant.id), eq(leads.id, valuation.lead_id)));
    if (!lead) errors['valuation.lead_id'] = 'is not a lead of this website';
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

export async function createValuation(tenant: Tenant, valuation: ValuationPayload): Promise<string> {
  await checkRefs(tenant, valuation);
  const db = await getDb();
  const [row] = await db.insert(valuations).values({ websiteId: tenant.id, ...columnsOf(valuation) }).returning({ id: valuations.id });
  return row.id;
}

/** PUT: fields given replace the stored ones; data keys merge. Another website's valuation is 404. */
export async function updateValuation(tenant: Tenant, valuation: ValuationPayload): Promise<string> {
  if (!valuation.id) throw new ValidationError({ 'valuation.id': '*This is a required field.' });
  await checkRefs(tenant, valuation);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(valuations).where(and(eq(valuations.websiteId, tenant.id), eq(valuations.id, valuation.id!))).for('update');
    if (!current) throw new NotFoundError();
    const { data, ...columns } = columnsOf(valuation);
    const set = Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
    await tx
      .update(valuations)
      .set({ ...set, data: { ...current.data, ...data }, updatedAt: new Date() })
      .where(and(eq(valuations.websiteId, tenant.id), eq(valuations.id, current.id)));
    return current.id;
  });
}

/** POST /api/miscellaneous: saves `data` under `column_name` in a valuation's data. */
export async function saveMiscellaneous(tenant: Tenant, input: { valuation_id?: string; column_name: string; data: Record<string, unknown> }): Promise<string> {
  const db = await getDb();
  if (!input.valuation_id) {
    const [row] = await db.insert(valuations).values({ websiteId: tenant.id, data: { [input.column_name]: input.data } }).returning({ id: valuations.id });
    return row.id;
  }
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(valuations).where(and(eq(valuations.websiteId, tenant.id), eq(valuations.id, input.valuation_id!))).for('update');
    if (!current) throw new NotFoundError();
    await tx
      .update(valuations)
      .set({ data: { ...current.data, [input.column_name]: input.data }, updatedAt: new Date() })
      .where(and(eq(valuations.websiteId, tenant.id), eq(valuations.id, current.id)));
    return current.id;
  });
}
