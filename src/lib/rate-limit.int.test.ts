import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { rowsOf } from '@/db/rows';
import { useTestDatabase } from '../../tests/support/database';
import { consumeLimits, DAY_MS, HOUR_MS, limitVerdict, peekLimits, RateLimitedError, waitPhrase, type RateLimit } from './rate-limit';

/**
 * The shared limiter's fixed windows (decision 024): the first hit of a key opens a window of the
 * limit's duration, each hit adds a point, and past `max` points the request is refused (429 with
 * the seconds until the window ends) until the window is over. Issue 36: tested on their own.
 */
describe('the shared limiter', () => {
  let db: Db;
  beforeAll(async () => {
    ({ db } = await useTestDatabase());
  });
  const T = Date.UTC(2026, 10, 28, 9, 0, 0);
  const limit = (key: string, max = 2, durationMs = 60_000, field?: string): RateLimit => ({ key, max, durationMs, message: (s) => `wait ${s}`, field });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => (error instanceof RateLimitedError ? { status: error.status, message: error.message, retryAfter: error.retryAfterSeconds, fields: error.fields } : error),
    );

  it('takes max hits in a window, refuses the next with the seconds left, and starts afresh when it ends', async () => {
    const l = limit('t:window');
    expect(await refusal(consumeLimits(db, [l], T))).toBeNull();
    expect(await refusal(consumeLimits(db, [l], T + 1_000))).toBeNull();
    // The window opened at T and lasts 60 s: at T + 20.5 s, 39.5 s are left, said as 40.
    expect(await refusal(consumeLimits(db, [l], T + 20_500))).toEqual({ status: 429, message: 'wait 40', retryAfter: 40, fields: undefined });
    // Still refused at the window's last millisecond, never less than 1 s to wait.
    expect(await refusal(consumeLimits(db, [l], T + 59_999))).toMatchObject({ retryAfter: 1 });
    // The window ends at T + 60 s: a new one opens with this hit.
    expect(await refusal(consumeLimits(db, [l], T + 60_000))).toBeNull();
    expect(await refusal(consumeLimits(db, [l], T + 60_001))).toBeNull();
    expect(await refusal(consumeLimits(db, [l], T + 60_002))).toMatchObject({ retryAfter: 60 });
  });

  it('counts every limit of a request, refuses with the first exceeded in the order given, naming its field', async () => {
    const wide = limit('t:wide', 5);
    const narrow = limit('t:narrow', 1, 60_000, 'phone');
    expect(await refusal(consumeLimits(db, [wide, narrow], T))).toBeNull();
    expect(await refusal(consumeLimits(db, [wide, narrow], T))).toEqual({ status: 429, message: 'wait 60', retryAfter: 60, fields: { phone: 'wait 60' } });
    const rows = rowsOf<{ key: string; points: number }>(await db.execute(sql`select key, points from rate_limits where key in ('t:wide', 't:narrow') order by key`));
    expect(rows).toEqual([{ key: 't:narrow', points: 2 }, { key: 't:wide', points: 2 }]);
    // Nothing to count: nothing refused, nothing stored.
    await consumeLimits(db, [], T);
  });

  it('peeks without counting: whether one more hit would be taken', async () => {
    const l = limit('t:peek', 1);
    expect(await peekLimits(db, [l], T)).toEqual({ ok: true });
    expect(await peekLimits(db, [l], T)).toEqual({ ok: true });
    await consumeLimits(db, [l], T);
    expect(await peekLimits(db, [l], T + 30_000)).toMatchObject({ ok: false, message: 'wait 30', retryAfterSeconds: 30 });
    // A window that has ended does not count.
    expect(await peekLimits(db, [l], T + 60_000)).toEqual({ ok: true });
    expect(await peekLimits(db, [], T)).toEqual({ ok: true });
  });

  it('gives the verdict on counts: at max taken, above it refused', () => {
    const l = limit('k', 3);
    expect(limitVerdict([l], [{ key: 'k', points: 3, expire: T + 1_000 }], T)).toEqual({ ok: true });
    expect(limitVerdict([l], [{ key: 'k', points: 4, expire: String(T + 1_000) }], T)).toMatchObject({ ok: false, retryAfterSeconds: 1 });
    expect(limitVerdict([l], [{ key: 'other', points: 9, expire: T + 1_000 }], T)).toEqual({ ok: true });
  });

  it('says how long to wait in minutes, or hours past 90 minutes', () => {
    expect(waitPhrase(0)).toBe('1 minute');
    expect(waitPhrase(60)).toBe('1 minute');
    expect(waitPhrase(61)).toBe('2 minutes');
    expect(waitPhrase(90 * 60)).toBe('90 minutes');
    expect(waitPhrase(90 * 60 + 1)).toBe('2 hours');
    expect(waitPhrase(DAY_MS / 1000)).toBe('24 hours');
    expect(HOUR_MS).toBe(3_600_000);
  });
});
