import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '@/db';
import { rowsOf } from '@/db/rows';
import { HttpError } from '@/lib/http/errors';

/**
 * The shared limiter: every endpoint that costs money or can be abused counts against limits kept
 * in PostgreSQL (table rate_limits), so every app process and replica shares them. Fixed windows:
 * the first hit of a key opens a window of the limit's duration, each hit adds a point, and past
 * `max` points the request is refused until the window ends (429 with Retry-After).
 *
 * Keys are `{kind}:{websiteId}:{subject}` (`{kind}:platform:{subject}` for a limit that counts every
 * website together, as the SMS limits do: decision 056), the subject being a client address (client-address.ts,
 * never a header the client sets), a phone number, a key id… Over a limit, the answer names what
 * to do next in the limit's own words.
 *
 * The counting is SQL (countLimitsSql), so a command may count in the same statement that stores
 * its work (decision 018, the lead submission); consumeLimits counts on its own.
 */

export type RateLimit = {
  key: string;
  max: number;
  durationMs: number;
  /** The visitor's message when this limit refuses, given the seconds until it reopens. */
  message: (retryAfterSeconds: number) => string;
  /** The request field the limit is about (e.g. 'phone'), named in the 429 body. */
  field?: string;
};

export type LimitCount = { key: string; points: number; expire: number | string };
export type LimitVerdict = { ok: true } | { ok: false; limit: RateLimit; message: string; retryAfterSeconds: number };

export class RateLimitedError extends HttpError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    field?: string,
  ) {
    super(429, message, field ? { [field]: message } : undefined);
  }
}

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

/** 'in N minutes' (or hours) for a limit's message. */
export function waitPhrase(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  if (minutes <= 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hours`;
}

/**
 * Two CTEs for a statement's WITH list: `limit_counts` adds a point to each limit (returning key,
 * points, expire) and `within_limits` is one row, `ok`, false when any limit is exceeded.
 */
export function countLimitsSql(limits: RateLimit[], nowMs = Date.now()): SQL {
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

/** The verdict on the counts: the first exceeded limit (in the order given), with its message. */
export function limitVerdict(limits: RateLimit[], counts: LimitCount[], nowMs = Date.now()): LimitVerdict {
  for (const limit of limits) {
    const count = counts.find((c) => c.key === limit.key);
    if (!count || count.points <= limit.max) continue;
    const retryAfterSeconds = Math.max(1, Math.ceil((Number(count.expire) - nowMs) / 1000));
    return { ok: false, limit, message: limit.message(retryAfterSeconds), retryAfterSeconds };
  }
  return { ok: true };
}

export function throwIfRefused(verdict: LimitVerdict): void {
  if (!verdict.ok) throw new RateLimitedError(verdict.message, verdict.retryAfterSeconds, verdict.limit.field);
}

/** Counts one hit against each limit; refused (RateLimitedError, 429) when any is exceeded. */
export async function consumeLimits(db: Db | Tx, limits: RateLimit[], nowMs = Date.now()): Promise<void> {
  if (limits.length === 0) return;
  const [row] = rowsOf<{ limits: LimitCount[] | null }>(
    await db.execute(sql`with ${countLimitsSql(limits, nowMs)} select (select json_agg(limit_counts) from limit_counts) as limits`),
  );
  throwIfRefused(limitVerdict(limits, row?.limits ?? [], nowMs));
}

/** Whether one more hit would be allowed now, without counting it (e.g. POST /api/rate-limit). */
export async function peekLimits(db: Db | Tx, limits: RateLimit[], nowMs = Date.now()): Promise<LimitVerdict> {
  if (limits.length === 0) return { ok: true };
  const keys = JSON.stringify(limits.map((l) => l.key));
  const counts = rowsOf<LimitCount>(
    await db.execute(sql`select key, points + 1 as points, expire from rate_limits
      where key in (select jsonb_array_elements_text(${keys}::jsonb)) and expire > ${nowMs}`),
  );
  return limitVerdict(limits, counts, nowMs);
}
