import 'server-only';
import { z } from 'zod';
import { HTTP_MESSAGES, BadRequestError, NotFoundError } from './errors';

/** Path segments and query parameters that name a resource. */

const MAX_DB_ID = 2_147_483_647;

/** A UUID in either case, as PostgreSQL reads one: ids a request carries (a lead, a reservation, a session token's claims). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path segment `<name>.json` → name; anything else is not a resource here. */
export const jsonSegmentSchema = z
  .string()
  .max(300)
  .regex(/^[^/]+\.json$/)
  .transform((segment) => segment.slice(0, -'.json'.length));

/** A database id in a request body (a car, a location): a number or a string of digits. */
export const dbIdSchema = z
  .union([z.number(), z.string().regex(/^\d{1,10}$/, 'must be a whole number')])
  .transform(Number)
  .pipe(z.number().int('must be a whole number').min(1, 'must be a positive whole number').max(MAX_DB_ID, 'is too large'));

/** A database id in a path segment. */
export const pathIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/)
  .transform(Number)
  .refine((id) => id <= MAX_DB_ID);

/** Route params parsed with a schema; 404 when they cannot name a resource. */
export function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new NotFoundError();
  return parsed.data;
}

/** A database id from a query parameter; 400 naming it when absent or malformed. */
export function parseQueryId(value: string | null, name: string): number {
  if (value == null || value === '') throw new BadRequestError(HTTP_MESSAGES.badRequest, { [name]: 'is required' });
  if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > MAX_DB_ID) {
    throw new BadRequestError(HTTP_MESSAGES.badRequest, { [name]: 'must be a positive whole number' });
  }
  return Number(value);
}
