import { z } from 'zod';
import { dbIdSchema } from '@/lib/http';
import { emailSchema, nameSchema, optional, postcodeSchema } from '@/modules/leads/server';
import { clampLoanTermYears, clampPurchasePrice, CREDIT_HISTORIES, DEFAULT_CREDIT_HISTORY, FINANCE_MIN_AMOUNT, type CreditHistory } from './finance.calc';

/**
 * Request bodies of POST /api/youx/quote and POST /api/youx/create-customer (SPEC §7), client-safe.
 * Figures are clamped as the popup clamps them; anything that is not a figure, a known credit
 * history or short text is refused with its field.
 */

const credit = z
  .union([z.string().max(20), z.null()])
  .optional()
  .transform((value, context): CreditHistory => {
    if (value == null || value === '') return DEFAULT_CREDIT_HISTORY;
    const upper = value.toUpperCase();
    if ((CREDIT_HISTORIES as readonly string[]).includes(upper)) return upper as CreditHistory;
    context.addIssue({ code: 'custom', message: `must be one of ${CREDIT_HISTORIES.join(', ')}` });
    return z.NEVER;
  });

/** A whole number given as a number or digits ('35,000' and '$35000' as the price field types them). */
const figure = (maxDigits: number) =>
  z.union([z.number().finite().nonnegative().max(10 ** maxDigits), z.string().max(maxDigits + 6).regex(/^\$?[\d,\s]*$/, 'must be a number')]);

// From FINANCE_MIN_AMOUNT: the server cannot tell a car's own price (financed from there) from a typed budget.
const purchasePrice = figure(9).optional().transform((value) => clampPurchasePrice(value, FINANCE_MIN_AMOUNT));
const loanTerm = figure(2).optional().transform((value) => clampLoanTermYears(value === '' ? undefined : value));
const year = z.union([z.number().int().min(1900).max(2100), z.string().regex(/^\d{4}$/, 'must be a year').transform(Number), z.null()]).optional();
const text = (max: number) => z.union([z.string().trim().max(max), z.null()]).optional().transform((value) => value || null);
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true'), z.null()]).optional().transform((value) => value === true);

export const quoteRequestSchema = z.object({
  selfAssessedCreditScore: credit,
  purchasePrice,
  loanTerm,
  year,
  vin: text(17),
  nvic: text(20),
  whoIsHelping: text(100),
  /** Not in SPEC §7's request: a website with several dealerships may name the one whose partner quotes. */
  dealership_slug: text(100),
});
export type QuoteRequest = z.output<typeof quoteRequestSchema>;

export const createCustomerSchema = z.object({
  data: z.object({
    nvic: text(20),
    vin: text(17),
    selfAssessedCreditScore: credit,
    purchasePrice,
    year,
    loanTerm,
    phoneNumber: z.string({ error: 'This is a required field.' }).trim().min(1, 'This is a required field.').max(40),
    firstName: nameSchema,
    lastName: optional(nameSchema),
    email: emailSchema,
    subscribe: flag,
    postCode: optional(postcodeSchema),
  }),
  additionalData: z
    .object({
      car_id: z.union([dbIdSchema, z.null()]).optional(),
      dealership_slug: text(100),
      car_type: text(20),
      whoIsHelping: text(100),
      category: text(100),
      lead_attributes: z.record(z.string().max(64), z.union([z.string().max(200), z.number(), z.boolean(), z.null()])).optional(),
    })
    // The rest of the lead (phone, price, term…) repeats data; it is the lead service's to keep.
    .loose()
    .optional(),
});
export type CreateCustomerRequest = z.output<typeof createCustomerSchema>;
