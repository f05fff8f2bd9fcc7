import { describe, expect, it } from 'vitest';
import { emitAuthEvent, isExpiring, onAuthStateChange, refreshWithRetry, retryDelay, type AuthEvent } from './session-client';

describe('the browser session (SPEC §4, §9)', () => {
  it('counts as expiring 90 s (3 ticks of 30 s) before the token does', () => {
    const now = 1_000_000_000;
    expect(isExpiring(now / 1000 + 91, now)).toBe(false);
    expect(isExpiring(now / 1000 + 90, now)).toBe(true);
    expect(isExpiring(now / 1000 - 1, now)).toBe(true);
  });

  it('backs off 200 ms × 2^attempt while that stays within 30 s', () => {
    expect([0, 1, 2, 3, 7].map(retryDelay)).toEqual([200, 400, 800, 1600, 25_600]);
    expect(retryDelay(8)).toBeNull();
  });

  it('retries 502, 503, 504 and lost connections, and stops at once on anything else', async () => {
    const slept: number[] = [];
    const sleep = async (ms: number) => void slept.push(ms);
    const answers = [502, 503, 0, 504, 200];
    let calls = 0;
    const flaky = async () => {
      const status = answers[calls++];
      if (status === 0) throw new Error('offline');
      return { status, body: status === 200 ? { expires_at: 42 } : {} };
    };
    expect(await refreshWithRetry(flaky, sleep)).toEqual({ ok: true, expiresAt: 42 });
    expect(slept).toEqual([200, 400, 800, 1600]);

    slept.length = 0;
    expect(await refreshWithRetry(async () => ({ status: 401, body: {} }), sleep)).toEqual({ ok: false, final: true });
    expect(slept).toEqual([]);
    expect(await refreshWithRetry(async () => ({ status: 503, body: {} }), sleep)).toEqual({ ok: false, final: true });
    expect(slept).toEqual([200, 400, 800, 1600, 3200, 6400, 12_800, 25_600]);
  });

  it('tells the page’s listeners of session events until they unsubscribe', () => {
    const heard: AuthEvent[] = [];
    const stop = onAuthStateChange((event) => heard.push(event));
    emitAuthEvent('INITIAL_SESSION');
    emitAuthEvent('SIGNED_IN');
    stop();
    emitAuthEvent('SIGNED_OUT');
    expect(heard).toEqual(['INITIAL_SESSION', 'SIGNED_IN']);
  });
});
