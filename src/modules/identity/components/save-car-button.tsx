'use client';

import { useEffect, useState, useSyncExternalStore } from 'react';
import { loadGarage, serverSnapshot, snapshot, subscribe, toggleSaved } from './garage-store';

const OFFER_SECONDS = 8;

/**
 * The heart (issue 14): a button with its pressed state and a label naming the car. Rendered the
 * same for everyone (the page may come from the page cache); its state arrives from /api/auth after
 * load and never changes its size, so nothing shifts. Signed out, a saved car stays in this browser
 * and, where the website has phone sign-in, a note under the heart offers it (over the page, so
 * nothing moves).
 */
export function SaveCarButton({
  carId,
  carName,
  offerSignIn,
  className,
}: {
  carId: number;
  carName: string;
  offerSignIn: boolean;
  /** Places the heart; it must position it (absolute or relative), the sign-in note hangs from it. */
  className: string;
}) {
  const state = useSyncExternalStore(subscribe, snapshot, serverSnapshot);
  const [offered, setOffered] = useState(false);
  useEffect(() => {
    void loadGarage();
  }, []);
  useEffect(() => {
    if (!offered) return;
    const timer = setTimeout(() => setOffered(false), OFFER_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [offered]);
  const saved = state.saved.has(carId);

  async function toggle() {
    await toggleSaved(carId);
    const { signedIn, saved: now } = snapshot();
    setOffered(offerSignIn && !signedIn && now.has(carId));
  }

  const next = typeof window === 'undefined' ? '/' : window.location.pathname + window.location.search;
  return (
    <div className={className}>
      <button
        type="button"
        aria-pressed={saved}
        aria-label={saved ? `Remove ${carName} from your garage` : `Save ${carName} to your garage`}
        title={saved ? 'Saved to your garage' : 'Save to your garage'}
        onClick={() => void toggle()}
        className="save-car-button"
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" className="size-5" fill={saved ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2">
          <path d="M12 21s-7.5-4.6-9.5-9.1C1.1 8.6 3.2 5 6.7 5c2 0 3.5 1.1 4.3 2.5h2C13.8 6.1 15.3 5 17.3 5c3.5 0 5.6 3.6 4.2 6.9C19.5 16.4 12 21 12 21z" strokeLinejoin="round" />
        </svg>
      </button>
      <div role="status" className={offered ? 'absolute right-0 top-full z-20 mt-2 w-60 rounded-lg bg-white p-3 text-sm text-slate-800 shadow-lg ring-1 ring-slate-200' : 'sr-only'}>
        {offered ? (
          <>
            Saved on this device.{' '}
            <a href={`/sign-in?next=${encodeURIComponent(next)}`} className="font-semibold text-brand-text underline">
              Sign in
            </a>{' '}
            to keep it on all your devices.
          </>
        ) : null}
      </div>
    </div>
  );
}
