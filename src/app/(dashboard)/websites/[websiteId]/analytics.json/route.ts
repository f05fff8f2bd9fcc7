import { z } from 'zod';
import { isValidTimeZone, wallTimeAt } from '@/lib/time-zone';
import { BadRequestError, DASHBOARD_MESSAGES } from '@/modules/dashboard/dashboard.errors';
import { dashboardRoute, jsonResponse, parseParams, pathIdSchema } from '@/modules/dashboard/dashboard.http';
import { dashboardTenant } from '@/modules/dashboard/dashboard.service';
import { countEvents, type LocalDate } from '@/modules/widgets/widgets.events.queries';

// Dashboard API: GET /websites/{id}/analytics.json?from=YYYY-MM-DD&to=YYYY-MM-DD — the website's
// analytics events per day and event id (its own time zone), totals, car page views per car and
// leads per source.
// Default: the last 30 days to today; at most 366 days.
export const dynamic = 'force-dynamic';

type Params = { websiteId: string };
const paramsSchema = z.object({ websiteId: pathIdSchema });
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

export const GET = dashboardRoute<Params>(async ({ request, params, principal }) => {
  const { websiteId } = parseParams(paramsSchema, params);
  const tenant = await dashboardTenant(principal, websiteId);
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') for (const key of issue.keys) fields[key.slice(0, 64)] ??= 'is not a parameter here (from, to)';
      else fields[issue.path.join('.') || 'query'] ??= issue.message;
    }
    throw new BadRequestError(DASHBOARD_MESSAGES.badRequest, fields);
  }
  const zone = isValidTimeZone(tenant.config.timeZone) ? tenant.config.timeZone : 'UTC';
  const today = wallTimeAt(Date.now(), zone);
  const to = parsed.data.to ?? { year: today.year, month: today.month, day: today.day };
  const from = parsed.data.from ?? fromUtc(utcDay(to) - 29 * DAY_MS);
  if (utcDay(from) > utcDay(to)) throw new BadRequestError(DASHBOARD_MESSAGES.badRequest, { from: 'must not be after to' });
  if ((utcDay(to) - utcDay(from)) / DAY_MS + 1 > MAX_DAYS) throw new BadRequestError(DASHBOARD_MESSAGES.badRequest, { from: `must be at most ${MAX_DAYS} days before to` });
  return jsonResponse(await countEvents(tenant, from, to), { headers: { 'Cache-Control': 'private, no-store' } });
});
