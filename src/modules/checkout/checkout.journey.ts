import 'server-only';
import { and, eq } from 'drizzle-orm';
import { getDb, type Tx } from '@/db';
import { consumeLimits, HOUR_MS, waitPhrase, type RateLimit } from '@/lib/rate-limit';
import { ValidationError } from '@/lib/http';
import { leads, valuations } from '../leads/leads.schema';
import { editTokenMatches } from '@/modules/leads/server';
import { configuredGeocoder, type Geocoder, checkPostcode, POSTCODE_MESSAGES, postcodeCountry } from '@/modules/locations/server';
import { locations } from '../locations/locations.schema';
import type { Tenant } from '../tenancy/tenancy.types';
import type { StartRequest } from './checkout.validation';

/**
 * The online purchase's choices (/checkout-journey, issue 16): each step is saved on a partial
 * lead through the lead API (POST then PUT /api/leads, as every multi-step form); the reservation
 * names that lead (choices.lead_id, proved by its edit token) and, once the deposit is captured,
 * the lead is completed as the reservation's lead instead of a second one being made. Every
 * reference a choice makes (lead, valuation, pick-up location) must be this website's, and a
 * delivery postcode one the postcode data knows.
 */

export type Choices = NonNullable<StartRequest['choices']>;

/** Delivery postcode checks per client address per hour (the geocoder may be a paid service). */
export const DELIVERY_CHECKS_PER_IP_PER_HOUR = 120;

/** The postcode's own message when malformed, 'Invalid postcode' when the postcode data has no such place; else null. */
export async function deliveryPostcodeError(tenant: Tenant, raw: string, geocoder: Geocoder = configuredGeocoder()): Promise<string | null> {
  const country = postcodeCountry(tenant.config.locale);
  const checked = checkPostcode(country, raw);
  if (!checked.success) return checked.message;
  return (await geocoder.geocodePostcode(country, checked.postcode)) ? null : POSTCODE_MESSAGES.notFound;
}

/** GET /api/checkout/delivery?postcode=: the step's check, counted against the client's limit. */
export async function checkDeliveryPostcode(tenant: Tenant, raw: string, ip: string | null, geocoder?: Geocoder): Promise<{ postcode: string }> {
  const limits: RateLimit[] = ip
    ? [{ key: `checkout-delivery-ip:${tenant.id}:${ip}`, max: DELIVERY_CHECKS_PER_IP_PER_HOUR, durationMs: HOUR_MS, message: (s) => `Too many postcode checks. Please try again in ${waitPhrase(s)}.` }]
    : [];
  await consumeLimits(await getDb(), limits);
  const error = await deliveryPostcodeError(tenant, raw.slice(0, 20), geocoder);
  if (error) throw new ValidationError({ postcode: error });
  return { postcode: raw.trim() };
}

/**
 * The reservation's choices checked against the website before anything is held: the partial
 * lead (this website's, not yet completed, with its edit token), the valuation (this website's,
 * of that lead), the pick-up location (a visible location of this website), the delivery postcode.
 * 422 naming each field otherwise.
 */
export async function checkChoices(tenant: Tenant, choices: Choices | undefined, leadToken: string | null): Promise<void> {
  if (!choices) return;
  const db = await getDb();
  const errors: Record<string, string> = {};
  if (choices.lead_id) {
    const [lead] = await db
      .select({ editTokenHash: leads.editTokenHash, formCompleted: leads.formCompleted })
      .from(leads)
      .where(and(eq(leads.websiteId, tenant.id), eq(leads.id, choices.lead_id)));
    if (!lead || !editTokenMatches(leadToken, lead.editTokenHash)) errors['choices.lead_id'] = 'is not a lead of this website';
    else if (lead.formCompleted) errors['choices.lead_id'] = 'has already been sent';
  }
  if (choices.valuation_id) {
    const [valuation] = await db
      .select({ leadId: valuations.leadId })
      .from(valuations)
      .where(and(eq(valuations.websiteId, tenant.id), eq(valuations.id, choices.valuation_id)));
    if (!valuation || !choices.lead_id || valuation.leadId !== choices.lead_id) errors['choices.valuation_id'] = 'is not a valuation of this lead';
  }
  if (choices.pickup_location_id !== undefined) {
    const [location] = await db
      .select({ id: locations.id })
      .from(locations)
      .where(and(eq(locations.websiteId, tenant.id), eq(locations.id, choices.pickup_location_id), eq(locations.visible, true)));
    if (!location) errors['choices.pickup_location_id'] = 'is not a location of this website';
  }
  if (choices.delivery_postcode !== undefined) {
    const error = await deliveryPostcodeError(tenant, choices.delivery_postcode);
    if (error) errors['choices.delivery_postcode'] = error;
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/**
 * The partial lead a completing reservation becomes, locked: the one its choices name, when it is
 * still this website's open lead; null when there is none (a lead is then made for it).
 */
export async function openPartialLead(tx: Tx, websiteId: number, choices: Record<string, unknown>): Promise<typeof leads.$inferSelect | null> {
  const id = choices.lead_id;
  if (typeof id !== 'string') return null;
  const [lead] = await tx
    .select()
    .from(leads)
    .where(and(eq(leads.websiteId, websiteId), eq(leads.id, id), eq(leads.formCompleted, false)))
    .for('update');
  return lead ?? null;
}
