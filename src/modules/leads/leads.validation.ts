import { z } from 'zod';

/**
 * The ids the lead API and its neighbours read from a request (a car, a location, a lead): not
 * rules of a form, which are form-rules/. The checkout, finance and garage routes use them too.
 */

const MAX_DB_ID = 2_147_483_647;
/** A database id sent as a number or a string of digits. */
export const dbIdSchema = z
  .union([z.number(), z.string().regex(/^\d{1,10}$/, 'must be a whole number')])
  .transform(Number)
  .pipe(z.number().int('must be a whole number').min(1, 'must be a positive whole number').max(MAX_DB_ID, 'is too large'));

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const leadIdSchema = z.string().regex(UUID_PATTERN, 'must be a lead id');
