import 'server-only';
import { z } from 'zod';
import { isValidTimeZone, wallTimeAt } from '@/lib/time-zone';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { BadRequestError, HTTP_MESSAGES } from '@/lib/http';

/**
 * The `?from=YYYY-MM-DD&to=YYYY-MM-DD` range of the Dashboard API's reports (analytics.json,
 * web_vitals.json): local dates of the website's time zone, inclusive. Default: the 30 days to
 * today; at most MAX_DAYS. A bad or unknown parameter is a 400 naming it.
 */

export type LocalDate = { year: number; month: number; day: number };

const MAX_DAYS = 366;
const DAY_MS = 86_400_000;

const dateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
  .transform((value) => ({ year: Number(value.slice(0, 4)), month: Number(value.slice(5, 7)), day: Number(value.slice(8, 10)) }))
  .refine((d) => {
    const date = new Date(Date.UTC(d.year, d.month - 1, d.day));
    return d.year >= 2000 && d.year <= 2100 && date.getUTCMonth() === d.month - 1 && date.getUTCDate() === d.day;
  }, 'must be a real date (YYYY-MM-DD)');

const querySchema = z.strictObject({ from: dateSchema.optional(), to: dateSchema.optional() });

const utcDay = (d: LocalDate) => Date.UTC(d.year, d.month - 1, d.day);
const fromUtc = (ms: number): LocalDate => {
  const date = new Date(ms);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
};

export function reportRange(request: Request, tenant: Tenant): { from: LocalDate; to: LocalDate } {
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') for (const key of issue.keys) fields[key.slice(0, 64)] ??= 'is not a parameter here (from, to)';
      else fields[issue.path.join('.') || 'query'] ??= issue.message;
    }
    throw new BadRequestError(HTTP_MESSAGES.badRequest, fields);
  }
  const zone = isValidTimeZone(tenant.config.timeZone) ? tenant.config.timeZone : 'UTC';
  const today = wallTimeAt(Date.now(), zone);
  const to = parsed.data.to ?? { year: today.year, month: today.month, day: today.day };
  const from = parsed.data.from ?? fromUtc(utcDay(to) - 29 * DAY_MS);
  if (utcDay(from) > utcDay(to)) throw new BadRequestError(HTTP_MESSAGES.badRequest, { from: 'must not be after to' });
  if ((utcDay(to) - utcDay(from)) / DAY_MS + 1 > MAX_DAYS) throw new BadRequestError(HTTP_MESSAGES.badRequest, { from: `must be at most ${MAX_DAYS} days before to` });
  return { from, to };
}
