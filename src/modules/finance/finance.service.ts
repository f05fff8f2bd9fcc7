import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/db';
import { consumeLimits, HOUR_MS } from '@/lib/rate-limit';
import { logger } from '@/lib/logger';
import { HttpError, NotFoundError, ValidationError, parseWith } from '@/lib/http';
import { codePhone, codePhoneMessage, spendPhoneVerification } from '@/modules/identity/server';
import { getLeadCarById } from '@/modules/leads/server';
import type { Tenant } from '../tenancy/tenancy.types';
import { partnerFor } from './adapters';
import { instantQuote, type InstantQuote } from './finance.calc';
import { isForSale } from '@/modules/stock/server';
import type { CarStatus } from '@/modules/stock/server';
import { financeSettingsOf } from './finance.display';
import { offersInstantFinance } from '@/modules/tenancy/tenancy.config';
import { FINANCE_MESSAGES } from './finance.enquiry';
import { financeApplications } from './finance.schema';
import { createCustomerSchema, quoteRequestSchema } from './finance.validation';

/**
 * The instant quote and the hand-over to the finance partner (issue 15, SPEC §7). Both exist where
 * the website offers instant finance; quotes are limited per client address (a partner's quote can
 * cost money), hand-overs too, and a hand-over uses up the one-time token of a code check of that
 * phone in the last 15 minutes (one verification, one application).
 */

export const QUOTES_PER_IP_PER_HOUR = 240;
export const HAND_OVERS_PER_IP_PER_HOUR = 10;
const TOO_MANY = () => 'Too many requests. Please try again later.';

function requireInstantFinance(tenant: Tenant): void {
  if (!offersInstantFinance(tenant.config)) throw new NotFoundError();
}

export async function financeQuote(tenant: Tenant, body: unknown, ip: string | null): Promise<InstantQuote> {
  requireInstantFinance(tenant);
  const request = parseWith(quoteRequestSchema, body);
  if (ip) await consumeLimits(await getDb(), [{ key: `finance-quote:${tenant.id}:${ip}`, max: QUOTES_PER_IP_PER_HOUR, durationMs: HOUR_MS, message: TOO_MANY }]);
  const { partner } = partnerFor(tenant, request.dealership_slug);
  try {
    return await partner.quote(request, financeSettingsOf(tenant.config));
  } catch (error) {
    logger.warn({ err: error, websiteId: tenant.id, partner: partner.name }, FINANCE_MESSAGES.quoteFailed);
    throw new HttpError(502, FINANCE_MESSAGES.quoteFailed);
  }
}

/** verificationToken: the one-time token of the phone's code check (its cookie), used up by the application. */
type Options = { ip: string | null; idempotencyKey: string | null; verificationToken: string | null; only?: 'carclarity' };

/** Stores the application, hands it to the dealership's partner and answers where the visitor goes next. */
export async function createFinanceCustomer(tenant: Tenant, body: unknown, { ip, idempotencyKey, verificationToken, only }: Options): Promise<{ redirectUrl: string }> {
  requireInstantFinance(tenant);
  const { data, additionalData } = parseWith(createCustomerSchema, body);
  const phone = codePhone(tenant, data.phoneNumber);
  if (!phone) throw new ValidationError({ 'data.phoneNumber': codePhoneMessage(tenant, data.phoneNumber) });
  const db = await getDb();
  if (idempotencyKey) {
    const [seen] = await db
      .select({ status: financeApplications.status, redirectUrl: financeApplications.redirectUrl })
      .from(financeApplications)
      .where(and(eq(financeApplications.websiteId, tenant.id), eq(financeApplications.idempotencyKey, idempotencyKey)));
    // A repeat gets the first answer; the partner is never asked twice for one key.
    if (seen?.status === 'created' && seen.redirectUrl) return { redirectUrl: seen.redirectUrl };
    if (seen?.status === 'failed') throw new HttpError(502, FINANCE_MESSAGES.customerFailed);
    if (seen) throw new HttpError(409, FINANCE_MESSAGES.customerFailed);
  }
  if (ip) await consumeLimits(db, [{ key: `finance-hand-over:${tenant.id}:${ip}`, max: HAND_OVERS_PER_IP_PER_HOUR, durationMs: HOUR_MS, message: TOO_MANY }]);

  const carId = additionalData?.car_id ?? null;
  const car = carId === null ? null : await getLeadCarById(tenant, carId);
  if (carId !== null && !car) throw new ValidationError({ 'additionalData.car_id': 'is not a car of this website' });
  // Finance only for a car that can be bought (decision 052), as the car page offers it.
  if (car && !isForSale({ status: car.status as CarStatus, reserved: car.reserved }, tenant.config)) throw new ValidationError({ 'additionalData.car_id': 'is sold or reserved' });
  const dealershipSlug = car?.dealershipSlug ?? additionalData?.dealership_slug ?? null;
  const { partner, partnerCode } = partnerFor(tenant, dealershipSlug, only);
  // Last before storing: a refused body does not use up the visitor's verification.
  if (!(await spendPhoneVerification(tenant, phone, verificationToken))) throw new HttpError(403, FINANCE_MESSAGES.unverified, { 'data.phoneNumber': 'is not verified' });
  // The figures the visitor was shown, as the dealer's record of them (the partner quotes again itself).
  const quote = instantQuote({ purchasePrice: data.purchasePrice, loanTermYears: data.loanTerm, credit: data.selfAssessedCreditScore, settings: financeSettingsOf(tenant.config) });
  const id = randomUUID();
  const application = {
    id,
    websiteSlug: tenant.slug,
    dealershipSlug,
    partnerCode,
    phone,
    firstName: data.firstName,
    lastName: data.lastName ?? null,
    email: data.email,
    postcode: data.postCode ?? null,
    subscribe: data.subscribe,
    purchasePrice: data.purchasePrice,
    loanTermYears: data.loanTerm,
    selfAssessedCreditScore: data.selfAssessedCreditScore,
    vin: data.vin,
    nvic: data.nvic,
    year: data.year ?? null,
    car: car ? { id: car.id, name: car.name, carType: car.carType } : null,
    quote,
  };
  const inserted = await db
    .insert(financeApplications)
    .values({ id, websiteId: tenant.id, dealershipSlug, carId: car?.id ?? null, partner: partner.name, phone, data: { ...application, quote: undefined }, quote, status: 'pending', idempotencyKey })
    .onConflictDoNothing()
    .returning({ id: financeApplications.id });
  // The same key arrived twice at once: the first one hands over.
  if (inserted.length === 0) throw new HttpError(409, FINANCE_MESSAGES.customerFailed);

  try {
    const handOver = await partner.createCustomer(application);
    await db.update(financeApplications).set({ status: 'created', redirectUrl: handOver.redirectUrl, partnerReference: handOver.reference }).where(eq(financeApplications.id, id));
    return { redirectUrl: handOver.redirectUrl };
  } catch (error) {
    logger.warn({ err: error, websiteId: tenant.id, partner: partner.name, application: id }, FINANCE_MESSAGES.customerFailed);
    await db.update(financeApplications).set({ status: 'failed', error: String((error as Error).message ?? error).slice(0, 500) }).where(eq(financeApplications.id, id));
    throw new HttpError(502, FINANCE_MESSAGES.customerFailed);
  }
}
