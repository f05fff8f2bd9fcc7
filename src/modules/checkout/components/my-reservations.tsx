'use client';

import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { formatDate, type DateConfig } from '@/lib/format';
import { parseReservations, RESERVATION_TOKEN_HEADER, STATUS_LABELS, storedReservationsText } from './checkout-storage';

/**
 * /checkout's island: the reservations started in this browser (localStorage), each with its
 * live status from GET /api/checkout/reservations/{id} (the token proves it is the visitor's).
 * Pending ones are asked again every few seconds.
 */

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
}

type Live = { status: string; amount_display: string; message: string | null } | 'gone' | null;

/** dates: the website's locale and time zone, which every date on the page is written in. */
export function MyReservations({ carBasePath, dates }: { carBasePath: string; dates: DateConfig }) {
  // undefined on the server (and while hydrating): nothing read yet.
  const text = useSyncExternalStore(subscribe, storedReservationsText, () => undefined);
  const stored = useMemo(() => (text === undefined ? null : parseReservations(text)), [text]);
  const [live, setLive] = useState<Record<string, Live>>({});

  useEffect(() => {
    const list = stored ?? [];
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    async function refresh() {
      const next: Record<string, Live> = {};
      await Promise.all(
        list.map(async (r) => {
          try {
            const response = await fetch(`/api/checkout/reservations/${encodeURIComponent(r.id)}`, { headers: { Accept: 'application/json', [RESERVATION_TOKEN_HEADER]: r.token } });
            if (response.status === 404) next[r.id] = 'gone';
            else if (response.ok) next[r.id] = ((await response.json()) as { reservation: Live }).reservation;
          } catch {
            // Offline: the last known status stays.
          }
        }),
      );
      if (stop) return;
      setLive((current) => ({ ...current, ...next }));
      if (Object.values(next).some((v) => v && v !== 'gone' && v.status === 'pending_payment')) timer = setTimeout(refresh, 3000);
    }
    if (list.length) void refresh();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [stored]);

  if (stored === null) return <p className="text-gray-700">Loading your reservations…</p>;
  if (stored.length === 0) return <p className="text-gray-800">You have no reservations in this browser.</p>;
  return (
    <ul className="space-y-4" aria-label="Your reservations" aria-live="polite">
      {stored.map((r) => {
        const state = live[r.id];
        const label = state === 'gone' ? 'Not found' : state ? (STATUS_LABELS[state.status] ?? state.status) : 'Checking…';
        return (
          <li key={r.id} className="rounded-site border border-gray-200 bg-white p-4 shadow-sm" data-reservation={r.id} data-status={state && state !== 'gone' ? state.status : ''}>
            <p className="font-semibold text-gray-900">
              <a href={`${carBasePath}/${r.car_slug}`} className="hover:underline">
                {r.car_name}
              </a>
            </p>
            <p className="text-gray-800">
              Status: <strong>{label}</strong>
              {state && state !== 'gone' ? ` · deposit ${state.amount_display}` : ''}
            </p>
            {state && state !== 'gone' && state.message ? <p className="text-sm text-gray-700">{state.message}</p> : null}
            <p className="text-sm text-gray-600">Started {formatDate(dates, r.created_at, 'dateTime')}</p>
          </li>
        );
      })}
    </ul>
  );
}
