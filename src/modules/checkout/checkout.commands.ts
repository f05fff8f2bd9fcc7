import 'server-only';
import { createHmac, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { getDb, type Db, type Tx } from '@/db';
import { rowsOf } from '@/db/rows';
import { formatMoney } from '@/lib/format';
import { logger } from '@/lib/logger';
import { consumeLimits, HOUR_MS, waitPhrase, type RateLimit } from '@/lib/rate-limit';
import { HttpError, NotFoundError, ValidationError, parseWith } from '@/lib/http';
import { wakeDeliveryWorker, editTokenMatches, hashEditToken, newEditToken } from '@/modules/leads/server';
import { platformSecret } from '@/modules/identity/server';
import { phoneRuleFor } from '@/modules/tenancy/tenancy.country';
import { canBuyOnline, canReserve, visibleCarsWhere } from '@/modules/stock/server';
import { findTenantById } from '../tenancy/tenancy.queries';
import type { Tenant } from '../tenancy/tenancy.types';
import { providerByName, providerForWebsite, type PaymentState } from './adapters';
import { sandboxProvider } from './adapters/sandbox';
import { PaymentProviderError, SignatureError, type ProviderNotification } from './adapters/types';
import { checkoutEnv } from './checkout.env';
import type { PaymentStep } from './payment-step';
import { checkChoices, openPartialLead } from './checkout.journey';
import { reservationLeadRows } from './checkout.notifications';
import { readRefundLink, refundLinkSigner, type RefundLinkClaims, type RefundLinkProblem, type RefundLinkSigner } from './checkout.refund-link';
import { reservationEvents, reservations, type ProviderName, type ReservationStatus } from './checkout.schema';
import { authenticateRequestSchema, cardRequestSchema, CHECKOUT_MESSAGES, DEFAULT_REFUND_TERMS, startRequestSchema, type StartRequest } from './checkout.validation';

/**
 * Reservations (issue 16, decision 034). A reservation is a state machine kept in PostgreSQL:
 *
 *   pending_payment ──authorised──▶ held ──captured──▶ completed ──refund──▶ refunded
 *        │                            └──cancel (void)──▶ cancelled
 *        ├──hold ran out──▶ expired        (a late authorisation re-holds the car if it is still free, else is voided)
 *        └──declined / car taken──▶ failed
 *
 * Every transition happens under the reservation's row lock, from the statuses it allows only,
 * and writes a reservation_events row. 'At most one pending or held reservation per car' is a
 * partial unique index; the car row is locked while a reservation starts or takes hold, so the
 * car's `reserved` flag and the reservation change together. Money moves only after the commit
 * that allows it (capture after the hold is committed, void after a refusal is committed), each
 * call with an idempotency key from the reservation and the step, so a retry never charges twice.
 */

export type Reservation = typeof reservations.$inferSelect;

export const ACTIVE_STATUSES: ReservationStatus[] = ['pending_payment', 'held'];
export const CARD_ATTEMPTS_PER_RESERVATION = 5;
export const CARD_ATTEMPTS_PER_IP_PER_HOUR = 20;
export const STARTS_PER_IP_PER_HOUR = 10;

export class ReservationRefusedError extends HttpError {
  constructor(
    message: string,
    readonly similarCars: SimilarCar[] = [],
    status = 409,
  ) {
    super(status, message);
  }
}

export type SimilarCar = { id: number; slug: string; name: string; price: number };

// ---- reading -----------------------------------------------------------------------------------

type CarForCheckout = {
  id: number;
  slug: string;
  name: string;
  make: string;
  price: number;
  status: 'in_stock' | 'coming_soon' | 'sold';
  reserved: boolean;
  reservable: boolean | null;
  dealershipId: number;
  depositAmount: number | null;
  processorKey: string | null;
  publishableKey: string | null;
};

async function readCar(db: Db | Tx, tenant: Tenant, carId: number): Promise<CarForCheckout | null> {
  const choice = tenant.config.checkout.paymentProvider ?? '';
  const [row] = rowsOf<CarForCheckout>(
    await db.execute(sql`select c.id, c.slug, c.name, c.make, c.price, c.status, c.reserved, c.reservable, c.dealership_id as "dealershipId",
        p.deposit_amount as "depositAmount", p.authorization_key as "processorKey", d.stripe_publishable_key as "publishableKey"
      from cars c
      join dealerships d on d.website_id = c.website_id and d.id = c.dealership_id
      left join lateral (
        select deposit_amount, authorization_key from car_payment_processors p
        where p.website_id = c.website_id and p.car_id = c.id and coalesce(p.authorization_key, '') <> ''
        order by (p.authorization_type = ${choice}) desc, p.id limit 1) p on true
      where c.website_id = ${tenant.id} and c.id = ${carId} and c.id in (select cars.id from cars where cars.website_id = ${tenant.id} and cars.id = ${carId} and ${visibleCarsWhere(tenant, new Date())})`),
  );
  return row ?? null;
}

function eligible(tenant: Tenant, car: CarForCheckout, kind: 'reserve' | 'buy_online'): boolean {
  const rule = { status: car.status, reserved: car.reserved, price: car.price, reservable: car.reservable, hasPaymentProcessor: car.processorKey !== null };
  const ok = kind === 'buy_online' ? canBuyOnline(rule, tenant.config) : canReserve(rule, tenant.config);
  return ok && (car.depositAmount ?? 0) > 0;
}

async function similarCars(db: Db | Tx, tenant: Tenant, car: Pick<CarForCheckout, 'id' | 'make' | 'price'>): Promise<SimilarCar[]> {
  return rowsOf<SimilarCar>(
    await db.execute(sql`select id, slug, name, price from cars
      where website_id = ${tenant.id} and id <> ${car.id} and status = 'in_stock' and not reserved and price > 0 and ${visibleCarsWhere(tenant, new Date())}
      order by (make = ${car.make}) desc, abs(price - ${car.price}), id limit 3`),
  );
}

/** Up to three cars to look at instead (the checkout page of a car that cannot be reserved). */
export async function similarCarsTo(tenant: Tenant, car: Pick<CarForCheckout, 'id' | 'make' | 'price'>): Promise<SimilarCar[]> {
  return similarCars(await getDb(), tenant, car);
}

async function lockReservation(tx: Tx, websiteId: number, id: string): Promise<Reservation | null> {
  const [row] = await tx.select().from(reservations).where(and(eq(reservations.websiteId, websiteId), eq(reservations.id, id))).for('update');
  return row ?? null;
}

type Actor = 'visitor' | 'provider' | 'dealer' | 'system';

/** Every transition leaves pending_payment: the payment step (a Stripe client secret among them) is not kept past it. */
async function setStatus(tx: Tx, row: Reservation, to: ReservationStatus, actor: Actor, reason: string, extra: Partial<Reservation> = {}): Promise<Reservation> {
  const [updated] = await tx
    .update(reservations)
    .set({ ...extra, status: to, paymentStep: null, updatedAt: new Date() })
    .where(and(eq(reservations.websiteId, row.websiteId), eq(reservations.id, row.id)))
    .returning();
  await tx.insert(reservationEvents).values({ websiteId: row.websiteId, reservationId: row.id, fromStatus: row.status, toStatus: to, actor, reason: reason.slice(0, 500) });
  return updated;
}

/** The car back on sale (its `reserved` flag cleared), when the reservation that held it ends. */
async function releaseCar(tx: Tx, row: Reservation): Promise<void> {
  await tx.execute(sql`update cars set reserved = false, updated_at = now() where website_id = ${row.websiteId} and id = ${row.carId} and reserved`);
}

type Released = { id: string; websiteId: number; provider: ProviderName; providerRef: string | null };

/**
 * Pending payments past their hold become expired (one statement, with their audit rows). Scoped
 * to a website (and a car or a reservation) when reading; across websites only for housekeeping.
 */
export async function expireHolds(db: Db | Tx, scope: { websiteId?: number; carId?: number; reservationId?: string } = {}): Promise<Released[]> {
  const where = [sql`status = 'pending_payment'`, sql`hold_expires_at < now()`];
  if (scope.websiteId !== undefined) where.push(sql`website_id = ${scope.websiteId}`);
  if (scope.carId !== undefined) where.push(sql`car_id = ${scope.carId}`);
  if (scope.reservationId !== undefined) where.push(sql`id = ${scope.reservationId}`);
  return rowsOf<Released>(
    await db.execute(sql`with gone as (
        update reservations set status = 'expired', failure_message = ${CHECKOUT_MESSAGES.expired}, payment_step = null, updated_at = now()
        where ${sql.join(where, sql` and `)}
        returning id, website_id, provider, provider_ref
      ), audit as (
        insert into reservation_events (website_id, reservation_id, from_status, to_status, actor, reason)
        select website_id, id, 'pending_payment', 'expired', 'system', 'hold ran out before the payment' from gone
      )
      select id, website_id as "websiteId", provider, provider_ref as "providerRef" from gone`),
  );
}

/** After expiry is committed: the providers' payments cancelled, so the visitor cannot pay a lapsed hold. */
async function voidReleased(released: Released[]): Promise<void> {
  await Promise.all(
    released
      .filter((r) => r.providerRef)
      .map(async (r) => {
        try {
          await providerByName(r.provider)?.void(r.providerRef!, `${r.id}-void`);
        } catch (error) {
          // Already authorised, captured or gone: a late authorisation is handled when it is notified.
          logger.info({ err: error, reservation: r.id }, 'void of an expired hold refused');
        }
      }),
  );
}

// ---- the visitor's view ------------------------------------------------------------------------

export type ReservationView = {
  id: string;
  status: ReservationStatus;
  kind: 'reserve' | 'buy_online';
  car: { id: number; slug: string; name: string };
  amount: number;
  amount_minor: number;
  currency: string;
  amount_display: string;
  provider: ProviderName;
  hold_expires_at: string;
  message: string | null;
  refund_terms: string;
  created_at: string;
};

export function reservationView(tenant: Tenant, row: Reservation): ReservationView {
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    car: { id: row.carId, slug: row.carSlug, name: row.carName },
    amount: row.amountMinor / 100,
    amount_minor: row.amountMinor,
    currency: row.currency,
    amount_display: formatMoney(tenant.config, row.amountMinor / 100),
    provider: row.provider,
    hold_expires_at: row.holdExpiresAt.toISOString(),
    message: row.failureMessage,
    refund_terms: tenant.config.checkout.refundTerms ?? DEFAULT_REFUND_TERMS,
    created_at: row.createdAt.toISOString(),
  };
}

// ---- start -------------------------------------------------------------------------------------

/** leadToken: the edit token of the partial lead the choices name (online purchase), from X-Edit-Token. */
export type StartMeta = { ip: string | null; idempotencyKey: string | null; origin: string; leadToken?: string | null };

export type StartResult = {
  reservation: ReservationView;
  token: string;
  /** What the browser pays with (payment-step.ts); null when a repeated start's payment is no longer pending. */
  payment: PaymentStep | null;
  replayed: boolean;
};

function startLimits(websiteId: number, ip: string | null): RateLimit[] {
  if (!ip) return [];
  return [{ key: `checkout-start:${websiteId}:${ip}`, max: STARTS_PER_IP_PER_HOUR, durationMs: HOUR_MS, message: (s) => CHECKOUT_MESSAGES.tooManyStarts(waitPhrase(s)) }];
}

export function notifyUrl(providerName: ProviderName, origin: string): string {
  const base = checkoutEnv().notifyBaseUrl;
  // The sandbox calls this very deployment: its loopback address, which resolves where a website's
  // host (harbour-city-motors.localhost) may not; the endpoint needs no Host (the payment names the reservation).
  if (!base && providerName === 'sandbox') return `http://127.0.0.1:${process.env.PORT ?? 3000}/api/checkout/notifications/sandbox`;
  return `${base ?? origin}/api/checkout/notifications/${providerName}`;
}

/** Where a provider sends the visitor back: the return endpoint on the website's own host (it leads to /checkout?reservation=). */
export function returnUrl(origin: string, reservationId: string): string {
  return `${origin}/api/checkout/reservations/${reservationId}/return`;
}

/** A value as JSON with its object keys sorted, so one request always gives one string. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The token of a start made with an Idempotency-Key, bound to the whole request: a keyed hash
 * (the platform's secret) of the reservation, the key, the request as checked and the visitor's
 * lead token. The same visitor repeating the same request is given the same token again (nothing
 * is voided); any other request with the key computes another token, which the stored hash refuses
 * (decision 056). The token itself is never stored, only its SHA-256, as for every token.
 */
async function boundToken(reservationId: string, idempotencyKey: string, request: StartRequest, leadToken: string | null): Promise<{ token: string; hash: string }> {
  const bound = canonicalJson({ reservationId, idempotencyKey, request, leadToken });
  const token = createHmac('sha256', await platformSecret()).update(`reservation-token\n${bound}`).digest('base64url');
  return { token, hash: hashEditToken(token) };
}

export const IDEMPOTENCY_MISMATCH = { 'Idempotency-Key': 'was used for another request: a new request needs a new key' } as const;

/**
 * POST /api/checkout/reservations: checks the visitor's details (the lead form's rules) and the
 * terms, counts the start against the client's limit, re-checks the car's eligibility (the car
 * page's own rule) and places the hold; then asks the provider for the payment.
 */
export async function startReservation(tenant: Tenant, body: unknown, meta: StartMeta): Promise<StartResult> {
  const request = parseWith(startRequestSchema(phoneRuleFor(tenant.config)), body);
  const db = await getDb();
  if (meta.idempotencyKey) {
    const [seen] = await db.select().from(reservations).where(and(eq(reservations.websiteId, tenant.id), eq(reservations.idempotencyKey, meta.idempotencyKey)));
    if (seen) return replay(tenant, seen, meta.idempotencyKey, request, meta.leadToken ?? null);
  }
  await checkChoices(tenant, request.choices, meta.leadToken ?? null);
  await consumeLimits(db, startLimits(tenant.id, meta.ip));
  const provider = providerForWebsite(tenant.config.checkout.paymentProvider);
  const car = await readCar(db, tenant, request.car_id);
  if (!car) throw new ValidationError({ car_id: 'is not a car of this website' });
  if (!eligible(tenant, car, request.kind)) throw new ReservationRefusedError(CHECKOUT_MESSAGES.notEligible, await similarCars(db, tenant, car));
  // Eligible, but this deployment has no keys for the website's provider and no sandbox may stand in.
  if (!provider) throw new ReservationRefusedError(CHECKOUT_MESSAGES.unavailable, [], 503);

  const id = randomUUID();
  const token = meta.idempotencyKey ? await boundToken(id, meta.idempotencyKey, request, meta.leadToken ?? null) : newEditToken();
  const now = new Date();
  let released: Released[] = [];
  let refusal: string | null = null;
  try {
    await db.transaction(async (tx) => {
      const [locked] = rowsOf<{ reserved: boolean; status: string }>(await tx.execute(sql`select reserved, status from cars where website_id = ${tenant.id} and id = ${car.id} for update`));
      if (!locked || locked.reserved || locked.status === 'sold') {
        refusal = CHECKOUT_MESSAGES.notEligible;
        return;
      }
      released = await expireHolds(tx, { websiteId: tenant.id, carId: car.id });
      const inserted = rowsOf<{ id: string }>(
        await tx.execute(sql`insert into reservations (id, website_id, dealership_id, car_id, car_slug, car_name, kind, status, provider, amount_minor, currency,
            visitor, choices, terms_accepted_at, hold_expires_at, access_token_hash, idempotency_key, created_at, updated_at)
          values (${id}, ${tenant.id}, ${car.dealershipId}, ${car.id}, ${car.slug}, ${car.name}, ${request.kind}, 'pending_payment', ${provider.name},
            ${Math.round(car.depositAmount! * 100)}, ${tenant.config.currency},
            ${JSON.stringify({ name: request.visitor.name, last_name: request.visitor.last_name ?? null, email: request.visitor.email, phone: request.visitor.phone, postcode: request.visitor.postcode })}::jsonb,
            ${JSON.stringify(request.choices ?? {})}::jsonb, ${now.toISOString()}, ${new Date(now.getTime() + tenant.config.checkout.holdMinutes * 60_000).toISOString()},
            ${token.hash}, ${meta.idempotencyKey}, ${now.toISOString()}, ${now.toISOString()})
          on conflict (website_id, car_id) where status in ('pending_payment', 'held') do nothing
          returning id`),
      );
      if (inserted.length === 0) {
        refusal = CHECKOUT_MESSAGES.carTaken;
        return;
      }
      await tx.insert(reservationEvents).values({ websiteId: tenant.id, reservationId: id, fromStatus: null, toStatus: 'pending_payment', actor: 'visitor', reason: `hold of ${tenant.config.checkout.holdMinutes} minutes` });
    });
  } catch (error) {
    // The same Idempotency-Key committed by a concurrent request (a unique violation): answer that one.
    const [seen] = meta.idempotencyKey ? await db.select().from(reservations).where(and(eq(reservations.websiteId, tenant.id), eq(reservations.idempotencyKey, meta.idempotencyKey))) : [];
    if (seen) return replay(tenant, seen, meta.idempotencyKey!, request, meta.leadToken ?? null);
    throw error;
  }
  void voidReleased(released);
  if (refusal) throw new ReservationRefusedError(refusal, await similarCars(db, tenant, car));

  let payment: PaymentStep;
  try {
    const created = await provider.createPayment({
      reservationId: id,
      websiteId: tenant.id,
      amountMinor: Math.round(car.depositAmount! * 100),
      currency: tenant.config.currency,
      description: `Deposit to reserve ${car.name} (${tenant.name})`,
      email: request.visitor.email,
      idempotencyKey: `${id}-create`,
      notifyUrl: notifyUrl(provider.name, meta.origin),
      returnUrl: returnUrl(meta.origin, id),
      publishableKey: car.publishableKey ?? car.processorKey,
    });
    // Only while still pending: a notification may already have moved it on (and cleared the step).
    await db
      .update(reservations)
      .set({ providerRef: created.ref, paymentStep: sql`case when ${reservations.status} = 'pending_payment' then ${JSON.stringify(created.step)}::jsonb end`, updatedAt: new Date() })
      .where(and(eq(reservations.websiteId, tenant.id), eq(reservations.id, id)));
    payment = created.step;
  } catch (error) {
    logger.warn({ err: error, reservation: id, provider: provider.name }, 'payment provider refused to create the payment');
    await db.transaction(async (tx) => {
      const row = await lockReservation(tx, tenant.id, id);
      if (row?.status === 'pending_payment') await setStatus(tx, row, 'failed', 'system', 'the provider did not create the payment', { failureMessage: CHECKOUT_MESSAGES.providerFailed });
    });
    throw new HttpError(502, CHECKOUT_MESSAGES.providerFailed);
  }
  const [row] = await db.select().from(reservations).where(and(eq(reservations.websiteId, tenant.id), eq(reservations.id, id)));
  return { reservation: reservationView(tenant, row), token: token.token, payment, replayed: false };
}

/**
 * A repeated Idempotency-Key: for the same request from the same visitor (the bound token matches
 * the stored hash), the first reservation with the same token, and the payment step its provider
 * gave, as stored, while the payment is pending (null once it is not, or while the first request
 * is still asking the provider). The provider is not asked again: Till refuses a repeated id, and
 * Stripe's or IPG's answer would be the same. Any other request with the key (another body, another
 * visitor, another lead token) is refused with 422 and learns nothing of the reservation.
 */
async function replay(tenant: Tenant, row: Reservation, idempotencyKey: string, request: StartRequest, leadToken: string | null): Promise<StartResult> {
  const token = await boundToken(row.id, idempotencyKey, request, leadToken);
  if (!editTokenMatches(token.token, row.accessTokenHash)) throw new ValidationError({ ...IDEMPOTENCY_MISMATCH });
  const payment = row.status === 'pending_payment' ? row.paymentStep : null;
  return { reservation: reservationView(tenant, row), token: token.token, payment, replayed: true };
}

// ---- the visitor's later steps -----------------------------------------------------------------

/** The reservation a visitor's token opens (404 otherwise, as for an unknown id), its lapsed hold expired first. */
export async function getReservation(tenant: Tenant, id: string, token: string | null, options: { sync?: boolean } = {}): Promise<Reservation> {
  const db = await getDb();
  const released = await expireHolds(db, { websiteId: tenant.id, reservationId: id });
  void voidReleased(released);
  let [row] = await db.select().from(reservations).where(and(eq(reservations.websiteId, tenant.id), eq(reservations.id, id)));
  if (!row || !editTokenMatches(token, row.accessTokenHash)) throw new NotFoundError();
  // The browser is back from the provider's page (Stripe.js, Till's hosted page): ask the provider.
  if (options.sync && row.status === 'pending_payment' && row.providerRef) row = (await syncReservation(row)) ?? row;
  return row;
}

function cardLimits(websiteId: number, reservationId: string, ip: string | null): RateLimit[] {
  const message = (s: number) => CHECKOUT_MESSAGES.tooManyCards(waitPhrase(s));
  const limits: RateLimit[] = [{ key: `checkout-card-reservation:${websiteId}:${reservationId}`, max: CARD_ATTEMPTS_PER_RESERVATION, durationMs: HOUR_MS, message }];
  if (ip) limits.unshift({ key: `checkout-card:${websiteId}:${ip}`, max: CARD_ATTEMPTS_PER_IP_PER_HOUR, durationMs: HOUR_MS, message });
  return limits;
}

/** The reservation a sandbox card step acts on: the visitor's own, paid with the sandbox, within the card limits, still waiting for payment. */
async function pendingSandboxReservation(tenant: Tenant, id: string, token: string | null, ip: string | null): Promise<Reservation> {
  const row = await getReservation(tenant, id, token);
  if (row.provider !== 'sandbox' || !row.providerRef) throw new NotFoundError();
  await consumeLimits(await getDb(), cardLimits(tenant.id, id, ip));
  if (row.status !== 'pending_payment') throw new HttpError(409, row.failureMessage ?? CHECKOUT_MESSAGES.notPending);
  return row;
}

/** A sandbox call; its refusal (an unknown or spent token) is the visitor's 409. */
async function askSandbox<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new HttpError(409, error.message);
    throw error;
  }
}

export type CardResult = { reservation: Reservation; declined: string | null; nextAction: { type: 'sandbox_authentication'; action_token: string; url: string } | null };

/** POST /api/checkout/reservations/{id}/sandbox/card: the sandbox card form (demo mode, tests). */
export async function payWithSandboxCard(tenant: Tenant, id: string, token: string | null, body: unknown, ip: string | null): Promise<CardResult> {
  if (!checkoutEnv().sandboxAllowed) throw new NotFoundError();
  const { card } = parseWith(cardRequestSchema(), body);
  const row = await pendingSandboxReservation(tenant, id, token, ip);
  const outcome = await askSandbox(() => sandboxProvider.confirmCard(row.providerRef!, card));
  // As the browser does after Stripe.js: the platform asks the provider and applies what it says.
  const after = (await applyPaymentState(tenant.id, id, outcome.state, outcome.message, 'provider', `sandbox card ${outcome.state}`)) ?? row;
  return {
    reservation: after,
    declined: outcome.state === 'failed' ? (outcome.message ?? CHECKOUT_MESSAGES.notPending) : null,
    nextAction: outcome.actionToken ? { type: 'sandbox_authentication', action_token: outcome.actionToken, url: `/api/checkout/reservations/${id}/sandbox/authenticate` } : null,
  };
}

/** POST /api/checkout/reservations/{id}/sandbox/authenticate: the sandbox's confirmation step ('3-D Secure'). */
export async function authenticateSandboxCard(tenant: Tenant, id: string, token: string | null, body: unknown, ip: string | null): Promise<CardResult> {
  if (!checkoutEnv().sandboxAllowed) throw new NotFoundError();
  const request = parseWith(authenticateRequestSchema, body);
  const row = await pendingSandboxReservation(tenant, id, token, ip);
  const outcome = await askSandbox(() => sandboxProvider.authenticate(row.providerRef!, request.action_token, request.outcome === 'approve'));
  const after = (await applyPaymentState(tenant.id, id, outcome.state, outcome.message, 'provider', `sandbox authentication ${request.outcome}`)) ?? row;
  return { reservation: after, declined: outcome.state === 'failed' ? outcome.message : null, nextAction: null };
}

// ---- the state machine -------------------------------------------------------------------------

type After = { kind: 'none' } | { kind: 'capture' } | { kind: 'void' } | { kind: 'refund' };

async function carIsFree(tx: Tx, row: Reservation): Promise<boolean> {
  const [car] = rowsOf<{ reserved: boolean; status: string }>(await tx.execute(sql`select reserved, status from cars where website_id = ${row.websiteId} and id = ${row.carId} for update`));
  if (!car || car.reserved || car.status === 'sold') return false;
  const [other] = rowsOf<{ id: string }>(
    await tx.execute(sql`select id from reservations where website_id = ${row.websiteId} and car_id = ${row.carId} and id <> ${row.id} and status in ('pending_payment', 'held') limit 1`),
  );
  return !other;
}

/** The hold taken: reservation held and the car reserved, in the caller's transaction. */
async function takeHold(tx: Tx, row: Reservation, actor: Actor, reason: string): Promise<Reservation> {
  const held = await setStatus(tx, row, 'held', actor, reason, { heldAt: new Date(), failureMessage: null });
  await tx.execute(sql`update cars set reserved = true, updated_at = now() where website_id = ${row.websiteId} and id = ${row.carId}`);
  return held;
}

/** Deposit captured: completed, and the dealer and the visitor told through the lead outbox (once: the lead is made on this transition only). */
async function complete(tx: Tx, tenant: Tenant | null, signer: RefundLinkSigner | null, row: Reservation, actor: Actor, reason: string): Promise<Reservation> {
  // An online purchase's partial lead becomes the reservation's lead: the dealer gets one lead.
  const partial = tenant ? await openPartialLead(tx, row.websiteId, row.choices) : null;
  const leadId = partial?.id ?? randomUUID();
  const completed = await setStatus(tx, row, 'completed', actor, reason, { capturedAt: new Date(), leadId, failureMessage: null });
  if (tenant && signer) await reservationLeadRows(tx, tenant, completed, leadId, partial, signer);
  return completed;
}

/**
 * Applies what the provider says about a reservation's payment. Idempotent: each state moves the
 * reservation only from the statuses where it means something, so a repeated, late or reordered
 * notification changes nothing. `event`, when given, is recorded in payment_provider_events in the
 * same transaction; an event already recorded is skipped whole (processed once).
 */
export async function applyPaymentState(
  websiteId: number,
  id: string,
  state: PaymentState,
  message: string | null,
  actor: Actor,
  reason: string,
  event?: { provider: ProviderName; eventId: string; type: string },
): Promise<Reservation | null> {
  const db = await getDb();
  let after: After = { kind: 'none' };
  let delivered = false;
  // Read before the transaction: the embedded database runs one statement at a time.
  const tenant = state === 'captured' || state === 'authorised' ? await findTenantById(websiteId) : null;
  // The dealer email's refund link is signed in the transaction; its key is read before it.
  const signer = tenant ? await refundLinkSigner() : null;
  const row = await db.transaction(async (tx) => {
    if (event) {
      const recorded = await tx.execute(sql`insert into payment_provider_events (provider, event_id, website_id, reservation_id, type)
        values (${event.provider}, ${event.eventId}, ${websiteId}, ${id}, ${event.type}) on conflict do nothing returning event_id`);
      if (rowsOf(recorded).length === 0) return null;
    }
    const r = await lockReservation(tx, websiteId, id);
    if (!r) return null;
    const recoverable = r.status === 'pending_payment' || r.status === 'expired' || r.status === 'failed';
    switch (state) {
      case 'authorised':
        if (r.status === 'held') after = { kind: 'capture' };
        else if (recoverable) {
          if (await carIsFree(tx, r)) {
            after = { kind: 'capture' };
            return takeHold(tx, r, actor, reason);
          }
          after = { kind: 'void' };
          return setStatus(tx, r, 'failed', actor, 'car taken before the authorisation', { failureMessage: CHECKOUT_MESSAGES.takenWhilePaying });
        } else if (r.status === 'cancelled' || r.status === 'refunded') after = { kind: 'void' };
        return r;
      case 'captured':
        if (r.status === 'held') {
          delivered = true;
          return complete(tx, tenant, signer, r, actor, reason);
        }
        if (recoverable) {
          if (await carIsFree(tx, r)) {
            await tx.execute(sql`update cars set reserved = true, updated_at = now() where website_id = ${r.websiteId} and id = ${r.carId}`);
            delivered = true;
            return complete(tx, tenant, signer, r, actor, `${reason} (captured without a hold)`);
          }
          after = { kind: 'refund' };
          return setStatus(tx, r, 'failed', actor, 'car taken before the capture', { failureMessage: CHECKOUT_MESSAGES.takenWhilePaying });
        }
        return r;
      case 'failed':
        if (r.status === 'pending_payment') return setStatus(tx, r, 'failed', actor, reason, { failureMessage: message ?? CHECKOUT_MESSAGES.providerFailed });
        return r;
      case 'canceled':
        if (r.status === 'pending_payment') return setStatus(tx, r, 'cancelled', actor, reason, { failureMessage: message });
        if (r.status === 'held') {
          await releaseCar(tx, r);
          return setStatus(tx, r, 'cancelled', actor, reason);
        }
        return r;
      case 'refunded':
        if (r.status === 'completed' || r.status === 'held') {
          await releaseCar(tx, r);
          return setStatus(tx, r, 'refunded', actor, reason, { refundedAt: new Date() });
        }
        return r;
      default:
        return r;
    }
  });
  if (delivered) wakeDeliveryWorker();
  if (!row) return null;
  const money = { minor: row.amountMinor, currency: row.currency };
  const provider = providerByName(row.provider);
  if (!provider || !row.providerRef || (after as After).kind === 'none') return row;
  try {
    if ((after as After).kind === 'capture') {
      const captured = await provider.capture(row.providerRef, money, `${row.id}-capture`);
      if (captured.state === 'captured') return (await applyPaymentState(websiteId, id, 'captured', null, 'system', 'deposit captured')) ?? row;
    } else if ((after as After).kind === 'void') {
      await provider.void(row.providerRef, `${row.id}-void`);
    } else if ((after as After).kind === 'refund') {
      await provider.refund(row.providerRef, money, `${row.id}-refund`);
    }
  } catch (error) {
    // Left as it is: the reconciliation (or the provider's next notification) finishes it.
    logger.warn({ err: error, reservation: row.id, step: (after as After).kind }, 'payment step after commit failed; reconciliation will retry');
  }
  return row;
}

/** Asks the provider where a reservation's payment stands and applies it (reconciliation). */
export async function syncReservation(row: Reservation): Promise<Reservation | null> {
  const provider = providerByName(row.provider);
  if (!provider || !row.providerRef) return row;
  try {
    const snapshot = await provider.retrieve(row.providerRef);
    return await applyPaymentState(row.websiteId, row.id, snapshot.state, snapshot.message, 'system', `reconciled: provider says ${snapshot.state}`);
  } catch (error) {
    logger.warn({ err: error, reservation: row.id }, 'reconciliation could not reach the provider');
    return row;
  }
}

/**
 * Housekeeping (every minute in each server process, and on demand): lapsed holds expired and
 * their payments voided; reservations whose provider may have moved without telling us (held but
 * not captured, pending with a payment, expired in the last day) asked again. This is what
 * completes a payment whose process died between the provider's answer and the commit.
 */
export async function reconcileReservations(options: { olderThanMs?: number; limit?: number } = {}): Promise<{ expired: number; checked: number }> {
  const db = await getDb();
  const released = await expireHolds(db);
  await voidReleased(released);
  const olderThan = new Date(Date.now() - (options.olderThanMs ?? 30_000)).toISOString();
  const rows = await db
    .select()
    .from(reservations)
    .where(
      sql`${reservations.providerRef} is not null and ${reservations.updatedAt} < ${olderThan} and (
        ${reservations.status} in ('pending_payment', 'held') or (${reservations.status} = 'expired' and ${reservations.updatedAt} > now() - interval '1 day'))`,
    )
    .limit(options.limit ?? 100);
  for (const row of rows) await syncReservation(row);
  return { expired: released.length, checked: rows.length };
}

// ---- notifications -----------------------------------------------------------------------------

export type NotificationOutcome = { status: 'processed' | 'duplicate' | 'ignored' };

/**
 * A provider's notification: the signature checked on the raw body (SignatureError → 400, and
 * nothing changes), the reservation found by the provider's reference (or the id in its
 * metadata), and the event applied once.
 */
export async function handleNotification(providerName: ProviderName, rawBody: string, headers: Headers, requestUrl: string): Promise<NotificationOutcome> {
  const provider = providerByName(providerName);
  if (!provider) throw new NotFoundError();
  let notification: ProviderNotification | null;
  try {
    notification = await provider.parseNotification(rawBody, headers, requestUrl);
  } catch (error) {
    if (error instanceof SignatureError) throw error;
    throw new SignatureError('unreadable notification');
  }
  if (!notification || !notification.ref || !notification.state) return { status: 'ignored' };
  const db = await getDb();
  const [row] = await db.select({ id: reservations.id, websiteId: reservations.websiteId }).from(reservations).where(and(eq(reservations.provider, providerName), eq(reservations.providerRef, notification.ref)));
  if (!row) return { status: 'ignored' };
  const applied = await applyPaymentState(row.websiteId, row.id, notification.state, notification.message, 'provider', `${providerName} ${notification.type}`, {
    provider: providerName,
    eventId: notification.eventId,
    type: notification.type,
  });
  return { status: applied ? 'processed' : 'duplicate' };
}

// ---- the dealer --------------------------------------------------------------------------------

/**
 * POST /dealerships/{id}/reservations/{id}/refund: a held deposit's authorisation voided, a
 * captured one refunded, a pending one cancelled; the car back in stock. A repeat answers the
 * reservation as it is (the provider calls carry idempotency keys).
 */
export async function refundReservation(websiteId: number, dealershipId: number, id: string): Promise<Reservation> {
  const db = await getDb();
  await voidReleased(await expireHolds(db, { websiteId, reservationId: id }));
  const [row] = await db.select().from(reservations).where(and(eq(reservations.websiteId, websiteId), eq(reservations.dealershipId, dealershipId), eq(reservations.id, id)));
  if (!row) throw new NotFoundError();
  if (row.status === 'refunded' || row.status === 'cancelled') return row;
  if (row.status === 'expired' || row.status === 'failed') throw new HttpError(409, CHECKOUT_MESSAGES.cannotRefund);
  const provider = providerByName(row.provider);
  if (!provider) throw new HttpError(503, 'The payment provider of this reservation is not configured on this server.');
  const money = { minor: row.amountMinor, currency: row.currency };
  let state: PaymentState;
  try {
    if (row.status === 'completed') state = (await provider.refund(row.providerRef!, money, `${row.id}-refund`)).state;
    else if (!row.providerRef) state = 'canceled';
    else {
      try {
        state = (await provider.void(row.providerRef, `${row.id}-void`)).state;
      } catch (error) {
        // Captured meanwhile: refund it instead.
        const now = await provider.retrieve(row.providerRef);
        if (now.state !== 'captured') throw error;
        await applyPaymentState(websiteId, id, 'captured', null, 'system', 'captured before the dealer cancelled');
        state = (await provider.refund(row.providerRef, money, `${row.id}-refund`)).state;
      }
    }
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new HttpError(502, `The payment provider refused: ${error.message}`);
    throw error;
  }
  const result = await db.transaction(async (tx) => {
    const r = await lockReservation(tx, websiteId, id);
    if (!r) throw new NotFoundError();
    if (r.status === 'completed' || (r.status === 'held' && state === 'refunded')) {
      await releaseCar(tx, r);
      return setStatus(tx, r, 'refunded', 'dealer', 'deposit refunded by the dealer', { refundedAt: new Date() });
    }
    if (r.status === 'held') {
      await releaseCar(tx, r);
      return setStatus(tx, r, 'cancelled', 'dealer', 'hold cancelled by the dealer (authorisation voided)');
    }
    if (r.status === 'pending_payment') return setStatus(tx, r, 'cancelled', 'dealer', 'cancelled by the dealer before payment');
    return r;
  });
  return result;
}

/* The refund link of the dealer's reservation email (checkout.refund-link.ts): what it shows, and its one use. */

export type RefundLinkReservation = {
  id: string;
  status: string;
  carName: string;
  amountMinor: number;
  currency: string;
  visitorName: string;
  capturedAt: Date | null;
  refundedAt: Date | null;
  updatedAt: Date;
};

export type RefundLinkState =
  | { kind: 'problem'; problem: RefundLinkProblem | 'not-found' }
  /** Paid (or held): the confirmation page's button refunds it. */
  | { kind: 'ready'; reservation: RefundLinkReservation; expiresAt: Date }
  /** Already refunded or cancelled: the link is spent. */
  | { kind: 'used'; reservation: RefundLinkReservation }
  /** Expired or failed before it was paid: nothing to refund. */
  | { kind: 'nothing'; reservation: RefundLinkReservation };

/** Where a link stands for this website: what the confirmation page shows. Never changes anything. */
export async function refundLinkState(tenant: Pick<Tenant, 'id'>, token: string, now = new Date()): Promise<RefundLinkState & { claims?: RefundLinkClaims }> {
  const read = await readRefundLink(tenant, token, now);
  if (!read.ok) return { kind: 'problem', problem: read.problem };
  const db = await getDb();
  const [row] = await db
    .select({
      id: reservations.id,
      status: reservations.status,
      carName: reservations.carName,
      amountMinor: reservations.amountMinor,
      currency: reservations.currency,
      visitor: reservations.visitor,
      capturedAt: reservations.capturedAt,
      refundedAt: reservations.refundedAt,
      updatedAt: reservations.updatedAt,
    })
    .from(reservations)
    .where(and(eq(reservations.websiteId, tenant.id), eq(reservations.dealershipId, read.claims.dealershipId), eq(reservations.id, read.claims.reservationId)));
  if (!row) return { kind: 'problem', problem: 'not-found' };
  const { visitor, ...rest } = row;
  const reservation: RefundLinkReservation = { ...rest, visitorName: [visitor.name, visitor.last_name].filter(Boolean).join(' ') };
  if (row.status === 'completed' || row.status === 'held') return { kind: 'ready', reservation, expiresAt: read.claims.expiresAt, claims: read.claims };
  if (row.status === 'refunded' || row.status === 'cancelled') return { kind: 'used', reservation };
  return { kind: 'nothing', reservation };
}

export type RefundLinkOutcome = 'refunded' | 'used' | 'expired' | 'invalid' | 'other-website' | 'not-found' | 'nothing' | 'provider';

/**
 * The POST of the confirmation page: refunds through the Dashboard API's command, once. A link
 * that is spent, expired, altered, of another website or of a reservation with nothing to refund
 * refunds nothing and says which.
 */
export async function redeemRefundLink(tenant: Pick<Tenant, 'id'>, token: string, now = new Date()): Promise<RefundLinkOutcome> {
  const state = await refundLinkState(tenant, token, now);
  if (state.kind === 'problem') return state.problem;
  if (state.kind === 'used') return 'used';
  if (state.kind === 'nothing') return 'nothing';
  try {
    const row = await refundReservation(tenant.id, state.claims!.dealershipId, state.reservation.id);
    return row.status === 'refunded' || row.status === 'cancelled' ? 'refunded' : 'nothing';
  } catch (error) {
    if (error instanceof NotFoundError) return 'not-found';
    if (error instanceof HttpError && error.status === 409) return 'nothing';
    if (error instanceof HttpError) return 'provider';
    throw error;
  }
}

// ---- what the pages show before a reservation ---------------------------------------------------

export type CheckoutQuote = {
  eligible: boolean;
  amount: number | null;
  currency: string;
  amount_display: string | null;
  provider: ProviderName | null;
  publishable_key: string | null;
  hold_minutes: number;
  refund_terms: string;
};

/** GET /api/checkout/quote?car_id=&kind=: whether the car can be reserved now, the deposit and who takes it. */
export async function checkoutQuote(tenant: Tenant, carId: number, kind: 'reserve' | 'buy_online'): Promise<CheckoutQuote> {
  const db = await getDb();
  const car = await readCar(db, tenant, carId);
  if (!car) throw new NotFoundError();
  const provider = providerForWebsite(tenant.config.checkout.paymentProvider);
  const ok = provider !== null && eligible(tenant, car, kind);
  return {
    eligible: ok,
    amount: ok ? car.depositAmount : null,
    currency: tenant.config.currency,
    amount_display: ok ? formatMoney(tenant.config, car.depositAmount!) : null,
    provider: ok ? provider.name : null,
    publishable_key: ok && provider.name === 'stripe' ? (car.publishableKey ?? car.processorKey) : null,
    hold_minutes: tenant.config.checkout.holdMinutes,
    refund_terms: tenant.config.checkout.refundTerms ?? DEFAULT_REFUND_TERMS,
  };
}
