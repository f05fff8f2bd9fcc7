/**
 * What this process last learnt about its database: answered or unavailable (decision 055). Set by
 * the notification connection's heartbeat and the generation poll (src/db/notifications.ts,
 * src/modules/tenancy/tenancy.generations.ts); read by the page cache, which serves pages past
 * their age while the database is unavailable (stale-if-error). On globalThis: the request hooks and
 * the pages are bundled apart, and must see one state.
 */
type HealthState = { unavailableSince: number | null };

const KEY = Symbol.for('dealer-platform.database-health');
const holder = globalThis as unknown as { [KEY]?: HealthState };

function state(): HealthState {
  return (holder[KEY] ??= { unavailableSince: null });
}

export function noteDatabaseAnswered(): void {
  state().unavailableSince = null;
}

export function noteDatabaseUnavailable(now = Date.now()): void {
  state().unavailableSince ??= now;
}

/** Whether the database failed to answer the last time this process checked. */
export function databaseKnownUnavailable(): boolean {
  return state().unavailableSince !== null;
}
