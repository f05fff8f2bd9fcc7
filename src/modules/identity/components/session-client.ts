/**
 * The browser side of a session (SPEC §4, §9): a session counts as expiring 90 s before its access
 * token does (a check every 30 s, a threshold of 3 ticks); refreshing retries 502, 503 and 504 (and
 * a lost connection) with a back-off of 200 ms × 2^attempt while that stays within 30 s; any other
 * failure is final and removes the session. The page's own listeners hear the session events.
 */

export const SESSION_TIMING = { tickMs: 30_000, thresholdTicks: 3, retryBaseMs: 200, retryMaxMs: 30_000 } as const;
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);
export type AuthEvent = 'INITIAL_SESSION' | 'SIGNED_IN' | 'SIGNED_OUT' | 'TOKEN_REFRESHED' | 'USER_UPDATED' | 'PASSWORD_RECOVERY' | 'MFA_CHALLENGE_VERIFIED';

/** Whether a session whose access token expires at `expiresAtSeconds` should be refreshed at `nowMs`. */
export function isExpiring(expiresAtSeconds: number, nowMs: number): boolean {
  return expiresAtSeconds * 1000 - nowMs <= SESSION_TIMING.tickMs * SESSION_TIMING.thresholdTicks;
}

/** The wait before retry `attempt` (0 first): 200 ms × 2^attempt; null once it would pass 30 s. */
export function retryDelay(attempt: number): number | null {
  const delay = SESSION_TIMING.retryBaseMs * 2 ** attempt;
  return delay > SESSION_TIMING.retryMaxMs ? null : delay;
}

export type RefreshOutcome = { ok: true; expiresAt: number } | { ok: false; final: true };
type Fetcher = () => Promise<{ status: number; body: { expires_at?: number } }>;

/** POST /api/auth/refresh, retried as SPEC §9 says. */
export async function refreshWithRetry(fetcher: Fetcher, sleep: (ms: number) => Promise<void>): Promise<RefreshOutcome> {
  for (let attempt = 0; ; attempt += 1) {
    let status = 0;
    try {
      const answer = await fetcher();
      status = answer.status;
      if (status >= 200 && status < 300 && typeof answer.body.expires_at === 'number') return { ok: true, expiresAt: answer.body.expires_at };
    } catch {
      // A lost connection is worth another try, like a gateway error.
    }
    const retryable = status === 0 || RETRYABLE_STATUSES.has(status);
    const delay = retryDelay(attempt);
    if (!retryable || delay === null) return { ok: false, final: true };
    await sleep(delay);
  }
}

const listeners = new Set<(event: AuthEvent) => void>();

/** The page's listeners of session events; returns the unsubscribe function. */
export function onAuthStateChange(listener: (event: AuthEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitAuthEvent(event: AuthEvent): void {
  for (const listener of listeners) listener(event);
}

export async function postRefresh(): Promise<{ status: number; body: { expires_at?: number } }> {
  const response = await fetch('/api/auth/refresh', { method: 'POST', headers: { Accept: 'application/json' } });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as { expires_at?: number } };
}

/**
 * Checks every 30 s whether the session is expiring and refreshes it then; calls `onEnded` when a
 * refresh fails for good. Returns the stop function.
 */
export function startAutoRefresh(expiresAt: () => number | null, onRefreshed: (expiresAt: number) => void, onEnded: () => void): () => void {
  let busy = false;
  const tick = async () => {
    const at = expiresAt();
    if (busy || at === null || !isExpiring(at, Date.now())) return;
    busy = true;
    const outcome = await refreshWithRetry(postRefresh, (ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    busy = false;
    if (outcome.ok) {
      onRefreshed(outcome.expiresAt);
      emitAuthEvent('TOKEN_REFRESHED');
    } else {
      onEnded();
      emitAuthEvent('SIGNED_OUT');
    }
  };
  const timer = setInterval(() => void tick(), SESSION_TIMING.tickMs);
  void tick();
  return () => clearInterval(timer);
}
