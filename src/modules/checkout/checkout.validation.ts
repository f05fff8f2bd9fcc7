import { z } from 'zod';
import { DEFAULT_PHONE_RULE, type PhoneRule } from '@/lib/phone';
import { dbIdSchema } from '@/lib/http';
import { leadIdSchema, userDetailsSchema } from '@/modules/leads/server';
import { CARD_MESSAGES, CHECKOUT_MESSAGES } from './checkout.messages';

/**
 * Checkout validation (client-safe): the visitor's details with the lead form's own rules and
 * messages, the terms, and the sandbox card form (Luhn, expiry, CVC) with the card messages the
 * real providers use.
 */

export { CARD_MESSAGES, CHECKOUT_MESSAGES } from './checkout.messages';

/** The test cards the sandbox knows (Stripe's well-known numbers); any other valid number succeeds. */
export const SANDBOX_TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  authenticationRequired: '4000002500003155',
} as const;

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const digitsOnly = (value: string) => value.replace(/[\s-]/g, '');

/** The sandbox card form. Expiry month 1–12, year as 2 or 4 digits, not in the past. */
export function cardSchema(now: Date = new Date()) {
  return z
    .object({
      number: z.string({ error: CARD_MESSAGES.number }).max(40, CARD_MESSAGES.number).transform(digitsOnly).refine(luhnValid, CARD_MESSAGES.number),
      exp_month: z.union([z.number(), z.string().regex(/^\d{1,2}$/, CARD_MESSAGES.expiry)], { error: CARD_MESSAGES.expiry }).transform(Number).pipe(z.number().int(CARD_MESSAGES.expiry).min(1, CARD_MESSAGES.expiry).max(12, CARD_MESSAGES.expiry)),
      exp_year: z
        .union([z.number(), z.string().regex(/^\d{2}(\d{2})?$/, CARD_MESSAGES.expiry)], { error: CARD_MESSAGES.expiry })
        .transform((value) => {
          const year = Number(value);
          return year < 100 ? 2000 + year : year;
        })
        .pipe(z.number().int(CARD_MESSAGES.expiry).min(2000, CARD_MESSAGES.expiry).max(2100, CARD_MESSAGES.expiry)),
      cvc: z.string({ error: CARD_MESSAGES.cvc }).regex(/^\d{3,4}$/, CARD_MESSAGES.cvc),
    })
    .superRefine((card, context) => {
      const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
      if (card.exp_year * 12 + (card.exp_month - 1) < thisMonth) context.addIssue({ code: 'custom', message: CARD_MESSAGES.expired, path: ['exp_month'] });
    });
}

export type CardInput = z.output<ReturnType<typeof cardSchema>>;

export const cardRequestSchema = (now?: Date) => z.object({ card: cardSchema(now) }, { error: 'must be an object' });

export const authenticateRequestSchema = z.object({
  action_token: z.string({ error: 'is required' }).regex(/^[A-Za-z0-9_-]{20,100}$/, 'is not a valid confirmation token'),
  /** The sandbox's confirmation page offers both, as a bank's 3-D Secure page does. */
  outcome: z.enum(['approve', 'fail'], { error: 'must be approve or fail' }),
});

const choicesSchema = z
  .object({
    payment_method: z.enum(['cash', 'finance'], { error: 'must be cash or finance' }).optional(),
    trade_in: z.boolean({ error: 'must be true or false' }).optional(),
    valuation_id: leadIdSchema.optional(),
    pickup_location_id: dbIdSchema.optional(),
    // Checked against the website's country and the postcode data by checkout.journey.ts.
    delivery_postcode: z.string({ error: 'must be text' }).max(10, 'must be at most 10 characters').optional(),
    lead_id: leadIdSchema.optional(),
  })
  .strict();

/** POST /api/checkout/reservations. */
export function startRequestSchema(rule: PhoneRule = DEFAULT_PHONE_RULE) {
  return z.object(
    {
      car_id: dbIdSchema,
      kind: z.enum(['reserve', 'buy_online'], { error: 'must be reserve or buy_online' }).default('reserve'),
      visitor: userDetailsSchema(rule),
      terms_accepted: z.literal(true, { error: CHECKOUT_MESSAGES.termsRequired }),
      choices: choicesSchema.optional(),
    },
    { error: 'must be an object' },
  );
}

export type StartRequest = z.output<ReturnType<typeof startRequestSchema>>;

export const DEFAULT_REFUND_TERMS =
  'Your deposit holds the car for you until you can inspect it. If you decide not to go ahead, or the car is not as described, the dealer refunds the deposit in full to the card you paid with, usually within 5 business days. The deposit counts towards the price when you buy the car.';
