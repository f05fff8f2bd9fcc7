import 'server-only';
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { websites } from '../tenancy/tenancy.schema';
import type { PaymentStep } from './payment-step';

/**
 * Reservations (issue 16, decision 034): a refundable deposit that holds a car. A state machine
 * (checkout.states.ts) kept in PostgreSQL; every transition writes a reservation_events row.
 */

export const RESERVATION_STATUSES = ['pending_payment', 'held', 'completed', 'cancelled', 'refunded', 'expired', 'failed'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

export const PROVIDER_NAMES = ['sandbox', 'stripe', 'till', 'stgeorge'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export type ReservationVisitor = { name: string; last_name: string | null; email: string; phone: string; postcode: string };

export const reservations = pgTable(
  'reservations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    dealershipId: integer('dealership_id').notNull(),
    /** No foreign key: the record of a deposit outlives the car's listing. */
    carId: integer('car_id').notNull(),
    carSlug: text('car_slug').notNull(),
    carName: text('car_name').notNull(),
    /** 'reserve' (/cars/{slug}/checkout) or 'buy_online' (/checkout-journey). */
    kind: text('kind', { enum: ['reserve', 'buy_online'] }).notNull().default('reserve'),
    status: text('status', { enum: RESERVATION_STATUSES }).notNull(),
    provider: text('provider', { enum: PROVIDER_NAMES }).notNull(),
    /** The provider's payment (PaymentIntent id, Till transaction uuid, IPG order id, sandbox payment id). */
    providerRef: text('provider_ref'),
    /**
     * What the browser pays with (payment-step.ts), as the provider gave it, so a start repeated with
     * the same Idempotency-Key answers it again without asking the provider (Till refuses a repeated
     * id). Kept only while the payment is pending: cleared by every transition (decision 041).
     */
    paymentStep: jsonb('payment_step').$type<PaymentStep>(),
    /** Deposit in minor units (cents) of `currency`. */
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    visitor: jsonb('visitor').$type<ReservationVisitor>().notNull(),
    /** The buyer's choices of an online purchase (cash or finance, trade-in, pick-up or delivery). */
    choices: jsonb('choices').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }).notNull(),
    /** A pending payment releases the car after this (expired). */
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }).notNull(),
    /** SHA-256 of the token the start answered; status and card steps present it. */
    accessTokenHash: text('access_token_hash').notNull(),
    idempotencyKey: text('idempotency_key'),
    /** The visitor's message when the payment failed or the car was taken. */
    failureMessage: text('failure_message'),
    /** The reservation lead (dealer email, webhook, visitor email), written when the deposit is captured. */
    leadId: uuid('lead_id'),
    heldAt: timestamp('held_at', { withTimezone: true }),
    capturedAt: timestamp('captured_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // At most one active reservation per car, enforced by the database whatever the app does.
    uniqueIndex('reservations_active_car_idx').on(t.websiteId, t.carId).where(sql`status in ('pending_payment', 'held')`),
    uniqueIndex('reservations_idempotency_idx').on(t.websiteId, t.idempotencyKey),
    uniqueIndex('reservations_provider_ref_idx').on(t.provider, t.providerRef),
    index('reservations_website_created_idx').on(t.websiteId, t.createdAt),
    index('reservations_dealership_created_idx').on(t.dealershipId, t.createdAt),
    index('reservations_pending_expiry_idx').on(t.holdExpiresAt).where(sql`status = 'pending_payment'`),
  ],
);

/** Audit: one row per transition of a reservation (who, from, to, why). */
export const reservationEvents = pgTable(
  'reservation_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id').notNull(),
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actor: text('actor', { enum: ['visitor', 'provider', 'dealer', 'system'] }).notNull(),
    reason: text('reason').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reservation_events_reservation_idx').on(t.reservationId, t.id)],
);

/** Provider notifications already processed: each event id once, however often it arrives. */
export const paymentProviderEvents = pgTable(
  'payment_provider_events',
  {
    provider: text('provider', { enum: PROVIDER_NAMES }).notNull(),
    eventId: text('event_id').notNull(),
    websiteId: integer('website_id'),
    reservationId: uuid('reservation_id'),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

export const SANDBOX_PAYMENT_STATUSES = ['requires_payment_method', 'requires_action', 'requires_capture', 'succeeded', 'canceled', 'failed'] as const;
export type SandboxPaymentStatus = (typeof SANDBOX_PAYMENT_STATUSES)[number];

/**
 * The sandbox provider's own ledger (adapters/sandbox.ts): what a real provider keeps on its side,
 * so the sandbox answers retrieve/capture/void/refund from its own state, not from the platform's.
 */
export const sandboxPayments = pgTable(
  'sandbox_payments',
  {
    id: text('id').primaryKey(),
    websiteId: integer('website_id').notNull(),
    reservationId: uuid('reservation_id').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: SANDBOX_PAYMENT_STATUSES }).notNull(),
    refundedMinor: integer('refunded_minor').notNull().default(0),
    last4: text('last4'),
    declineMessage: text('decline_message'),
    /** SHA-256 of the one-time token of the authentication step. */
    actionTokenHash: text('action_token_hash'),
    /** Where the signed notifications go (the platform's own endpoint). */
    notifyUrl: text('notify_url'),
    /** Idempotency keys already answered: key → the answer's status. */
    idempotency: jsonb('idempotency').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sandbox_payments_reservation_idx').on(t.reservationId)],
);
