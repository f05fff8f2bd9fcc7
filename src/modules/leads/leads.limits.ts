import 'server-only';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { getDatabase } from '@/db';
import type { DatabaseHandle } from '@/db/client';
import { env } from '@/lib/env';

/**
 * Per-IP and per-phone limits on lead submissions, counted in PostgreSQL (table rate_limits, made
 * by the migration) so every app process shares them. rate-limiter-flexible's Postgres store talks
 * to the node-postgres pool directly, or to PGlite through a one-method adapter.
 */

export const LIMIT_MESSAGES = {
  ip: (minutes: number) =>
    `We have received a lot of enquiries from your connection. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or call us.`,
  phone: (minutes: number) =>
    `We have already received several enquiries with this phone number. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or call us.`,
} as const;

type Limiters = { ip: RateLimiterPostgres; phone: RateLimiterPostgres };
export type LimitOptions = { perIpPerHour: number; perPhonePerDay: number };

const cache = new WeakMap<DatabaseHandle, Map<string, Limiters>>();

type QueryObject = { text: string; values?: unknown[] };
type StoreClient = { query: (q: QueryObject) => Promise<{ rows: unknown[]; rowCount: number }> };

function storeClient(handle: DatabaseHandle): { client: unknown; type: 'pool' | 'client' } {
  const raw = (handle.db as unknown as { $client: unknown }).$client;
  if (handle.kind === 'postgres') return { client: raw, type: 'pool' };
  const pglite = raw as { query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[]; affectedRows?: number }> };
  const adapter: StoreClient = {
    query: async ({ text, values }) => {
      const result = await pglite.query(text, values);
      return { rows: result.rows, rowCount: result.rows.length || (result.affectedRows ?? 0) };
    },
  };
  return { client: adapter, type: 'client' };
}

function limitersFor(handle: DatabaseHandle, options: LimitOptions): Limiters {
  let byOptions = cache.get(handle);
  if (!byOptions) cache.set(handle, (byOptions = new Map()));
  const key = `${options.perIpPerHour}/${options.perPhonePerDay}`;
  let limiters = byOptions.get(key);
  if (!limiters) {
    const { client, type } = storeClient(handle);
    const common = { storeClient: client, storeType: type, tableName: 'rate_limits', tableCreated: true, clearExpiredByTimeout: false };
    limiters = {
      ip: new RateLimiterPostgres({ ...common, keyPrefix: 'lead-ip', points: options.perIpPerHour, duration: 60 * 60 }),
      phone: new RateLimiterPostgres({ ...common, keyPrefix: 'lead-phone', points: options.perPhonePerDay, duration: 24 * 60 * 60 }),
    };
    byOptions.set(key, limiters);
  }
  return limiters;
}

export type LimitVerdict = { ok: true } | { ok: false; field: 'ip' | 'phone'; message: string; retryAfterSeconds: number };

/** Counts one submission for the IP and the phone (per website); refuses with a clear message over either limit. */
export async function consumeLeadLimits(
  websiteId: number,
  ip: string | null,
  phone: string | undefined,
  options: LimitOptions = { perIpPerHour: env().leadLimitPerIp, perPhonePerDay: env().leadLimitPerPhone },
): Promise<LimitVerdict> {
  const limiters = limitersFor(await getDatabase(), options);
  const checks: [keyof Limiters, string | null | undefined][] = [
    ['ip', ip],
    ['phone', phone],
  ];
  // Both counted at once (one round trip of latency); the IP verdict is reported first.
  const verdicts = await Promise.all(
    checks.map(async ([field, value]): Promise<LimitVerdict> => {
      if (!value) return { ok: true };
      try {
        await limiters[field].consume(`${websiteId}:${value}`);
        return { ok: true };
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        const retryAfterSeconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        return { ok: false, field, message: LIMIT_MESSAGES[field](Math.ceil(retryAfterSeconds / 60)), retryAfterSeconds };
      }
    }),
  );
  return verdicts.find((verdict) => !verdict.ok) ?? { ok: true };
}
