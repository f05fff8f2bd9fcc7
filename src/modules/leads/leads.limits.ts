import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { env } from '@/lib/env';

/**
 * Per-IP and per-phone limits on lead submissions, counted in PostgreSQL (table rate_limits, made
 * by the migration) so every app process shares them. Fixed windows, as rate-limiter-flexible
 * counted them before (same table, same keys): the first submission of a key opens a window of the
 * limit's duration, each one adds a point, and over the limit the submission is refused until the
 * window ends. The counting is a CTE of the statement that stores the lead (decision 018), so a
 * submission is counted exactly when it is accepted or refused by a limit.
 */

export const LIMIT_MESSAGES = {
  ip: (minutes: number) =>
    `We have received a lot of enquiries from your connection. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or call us.`,
  phone: (minutes: number) =>
    `We have already received several enquiries with this phone number. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or call us.`,
} as const;

export type LimitOptions = { perIpPerHour: number; perPhonePerDay: number };
type Field = 'ip' | 'phone';
export type LeadLimit = { field: Field; key: string; max: number; durationMs: number };
export type LimitCount = { key: string; points: number; expire: number | string };
export type LimitVerdict = { ok: true } | { ok: false; field: Field; message: string; retryAfterSeconds: number };

/** The limits one submission counts against: its IP's and its phone's (per website), IP first. */
export function leadLimits(
  websiteId: number,
  ip: string | null,
  phone: string | undefined,
  options: LimitOptions = { perIpPerHour: env().leadLimitPerIp, perPhonePerDay: env().leadLimitPerPhone },
): LeadLimit[] {
  const limits: LeadLimit[] = [];
  if (ip) limits.push({ field: 'ip', key: `lead-ip:${websiteId}:${ip}`, max: options.perIpPerHour, durationMs: 60 * 60 * 1000 });
  if (phone) limits.push({ field: 'phone', key: `lead-phone:${websiteId}:${phone}`, max: options.perPhonePerDay, durationMs: 24 * 60 * 60 * 1000 });
  return limits;
}

/**
 * Two CTEs for a statement's WITH list: `limit_counts` adds a point to each limit (returning key,
 * points, expire) and `within_limits` is one row, `ok`, false when any limit is exceeded.
 */
export function countLimitsSql(limits: LeadLimit[], nowMs = Date.now()): SQL {
  const wanted = JSON.stringify(limits.map(({ key, max, durationMs }) => ({ key, max, expire: nowMs + durationMs })));
  return sql`limit_wanted as (
      select * from jsonb_to_recordset(${wanted}::jsonb) as w(key varchar, max integer, expire bigint)
    ), limit_counts as (
      insert into rate_limits (key, points, expire)
      select key, 1, expire from limit_wanted order by key
      on conflict (key) do update set
        points = case when rate_limits.expire <= ${nowMs} then 1 else rate_limits.points + 1 end,
        expire = case when rate_limits.expire <= ${nowMs} then excluded.expire else rate_limits.expire end
      returning key, points, expire
    ), within_limits as (
      select not exists (select 1 from limit_counts c join limit_wanted w using (key) where c.points > w.max) as ok
    )`;
}

/** The verdict on the counts `limit_counts` returned: the first exceeded limit (IP before phone), with a clear message. */
export function limitVerdict(limits: LeadLimit[], counts: LimitCount[], nowMs = Date.now()): LimitVerdict {
  for (const limit of limits) {
    const count = counts.find((c) => c.key === limit.key);
    if (!count || count.points <= limit.max) continue;
    const retryAfterSeconds = Math.max(1, Math.ceil((Number(count.expire) - nowMs) / 1000));
    return { ok: false, field: limit.field, message: LIMIT_MESSAGES[limit.field](Math.ceil(retryAfterSeconds / 60)), retryAfterSeconds };
  }
  return { ok: true };
}
