/**
 * The visitor's reservations in this browser (localStorage): the id and the token the start
 * answered, which the /checkout page presents to read each one's live status. Client-only.
 */

export type StoredReservation = { id: string; token: string; car_name: string; car_slug: string; created_at: string };

const STORAGE_KEY = 'checkout-reservations';
const MAX_KEPT = 20;

export function readReservations(): StoredReservation[] {
  try {
    return parseReservations(window.localStorage.getItem(STORAGE_KEY));
  } catch {
    return [];
  }
}

/** The stored text as it is (a stable value for useSyncExternalStore); null when none or unreadable. */
export function storedReservationsText(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function parseReservations(text: string | null): StoredReservation[] {
  try {
    const parsed = JSON.parse(text ?? '[]') as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (r): r is StoredReservation => !!r && typeof r === 'object' && typeof (r as StoredReservation).id === 'string' && typeof (r as StoredReservation).token === 'string',
    );
  } catch {
    return [];
  }
}

export function storeReservation(entry: StoredReservation): void {
  try {
    const kept = [entry, ...readReservations().filter((r) => r.id !== entry.id)].slice(0, MAX_KEPT);
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(kept));
  } catch {
    // Private browsing or a full store: the confirmation and the email still say what happened.
  }
}

export const RESERVATION_TOKEN_HEADER = 'X-Reservation-Token';

/** The statuses as the visitor reads them. */
export const STATUS_LABELS: Record<string, string> = {
  pending_payment: 'Waiting for payment',
  held: 'Reserved (payment authorised)',
  completed: 'Reserved',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  expired: 'Expired (not paid in time)',
  failed: 'Payment failed',
};

export function newKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
