import { CLIENT_EVENTS, trackEvent } from '@/modules/widgets';
import { emitAuthEvent, postRefresh, refreshWithRetry, startAutoRefresh } from './session-client';

/**
 * The browser's view of the visitor's garage (issue 14): who is signed in and which cars are saved,
 * loaded once per page from GET /api/auth after the page is shown (cached pages stay anonymous).
 * Signed out, saved cars are kept in this browser (localStorage) and merged into the account on
 * sign-in. Components read it through useGarage (useSyncExternalStore), so every heart agrees.
 */

export type SavedCar = { id: number; name: string; slug: string; make: string; model: string; primary_image_url: string | null; price: number; status: string; reserved: boolean; saved_price: number | null };
export type GarageState = { status: 'idle' | 'loading' | 'ready'; signedIn: boolean; user: { phone: string; first_name: string | null } | null; saved: ReadonlySet<number>; cars: SavedCar[] };

export const LOCAL_GARAGE_KEY = 'garage-saved-cars';
const MAX_LOCAL = 200;

let state: GarageState = { status: 'idle', signedIn: false, user: null, saved: new Set(), cars: [] };
const listeners = new Set<() => void>();

function set(next: Partial<GarageState>) {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export const snapshot = () => state;
export const serverSnapshot = () => state;

export function localSaved(): number[] {
  try {
    const value = JSON.parse(window.localStorage.getItem(LOCAL_GARAGE_KEY) ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id) && id > 0).slice(0, MAX_LOCAL) : [];
  } catch {
    return [];
  }
}

function storeLocal(ids: number[]) {
  try {
    window.localStorage.setItem(LOCAL_GARAGE_KEY, JSON.stringify(ids.slice(0, MAX_LOCAL)));
  } catch {
    // Private browsing or a full store: the heart still shows for this page.
  }
}

type AuthAnswer = { user: GarageState['user']; watchlist: SavedCar[]; expires_at?: number; error?: string };

function applyAnswer(body: AuthAnswer) {
  set({ status: 'ready', signedIn: body.user !== null, user: body.user, cars: body.watchlist, saved: body.user ? new Set(body.watchlist.map((car) => car.id)) : new Set(localSaved()) });
}

let loading: Promise<void> | null = null;
let expiresAt: number | null = null;
let stopRefresh: (() => void) | null = null;
let announced = false;

async function fetchAuth(): Promise<AuthAnswer> {
  const response = await fetch('/api/auth', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return (await response.json()) as AuthAnswer;
}

/** Loads who is signed in and what they saved (once per page; again with force), refreshing an expired session first. */
export function loadGarage(force = false): Promise<void> {
  if (loading && !force) return loading;
  set({ status: 'loading' });
  loading = (async () => {
    let answer = await fetchAuth();
    if (!answer.user && answer.error === 'expired') {
      const refreshed = await refreshWithRetry(postRefresh, (ms) => new Promise((resolve) => setTimeout(resolve, ms)));
      if (refreshed.ok) {
        emitAuthEvent('TOKEN_REFRESHED');
        answer = await fetchAuth();
      }
    }
    // Signed in however it happened (the script's sign-in, or the plain form before the scripts
    // ran): the cars saved in this browser join the account.
    if (answer.user && localSaved().length) answer = { ...answer, watchlist: (await postLocalSaved()) ?? answer.watchlist };
    applyAnswer(answer);
    expiresAt = answer.user ? (answer.expires_at ?? null) : null;
    if (answer.user && !stopRefresh) {
      stopRefresh = startAutoRefresh(
        () => expiresAt,
        (at) => (expiresAt = at),
        () => {
          expiresAt = null;
          stopRefresh?.();
          stopRefresh = null;
          set({ signedIn: false, user: null, cars: [], saved: new Set(localSaved()) });
        },
      );
    }
    if (!announced) {
      announced = true;
      emitAuthEvent('INITIAL_SESSION');
    }
  })().catch(() => set({ status: 'ready', signedIn: false, user: null, saved: new Set(localSaved()) }));
  return loading;
}

// A page restored from the back/forward cache shows what was saved when it was left: ask again.
if (typeof window !== 'undefined') {
  window.addEventListener('pageshow', (event) => {
    if (event.persisted && loading) void loadGarage(true);
  });
}

/** Saves or removes a car: in the account when signed in, in this browser otherwise. */
export async function toggleSaved(carId: number): Promise<void> {
  await loadGarage();
  const saved = state.saved.has(carId);
  if (!state.signedIn) {
    const ids = saved ? localSaved().filter((id) => id !== carId) : [carId, ...localSaved().filter((id) => id !== carId)];
    storeLocal(ids);
    set({ saved: new Set(ids) });
    // Signed in, the server records 20/21 with the saved car (identity.garage.ts); signed out, the browser does.
    trackEvent(saved ? CLIENT_EVENTS.favouriteRemoved : CLIENT_EVENTS.favouriteSaved, { car_id: carId });
    return;
  }
  const next = new Set(state.saved);
  if (saved) next.delete(carId);
  else next.add(carId);
  set({ saved: next });
  const response = saved
    ? await fetch(`/api/garage/${carId}`, { method: 'DELETE', headers: { Accept: 'application/json' } })
    : await fetch('/api/garage', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ car_ids: [carId] }) });
  if (response.ok) applyAnswer({ user: state.user, watchlist: ((await response.json()) as { watchlist: SavedCar[] }).watchlist });
  else await loadGarage(true);
}

/** The cars saved in this browser into the account (the browser's list cleared); the account's list, or null when refused. */
async function postLocalSaved(): Promise<SavedCar[] | null> {
  const response = await fetch('/api/garage', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ car_ids: localSaved() }) });
  if (!response.ok) return null;
  storeLocal([]);
  return ((await response.json()) as { watchlist: SavedCar[] }).watchlist;
}

/** After sign-in: the garage read again (loadGarage merges the cars saved in this browser). */
export async function mergeLocalSaved(): Promise<void> {
  await loadGarage(true);
  emitAuthEvent('SIGNED_IN');
}
