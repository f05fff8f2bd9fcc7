'use client';

import { useEffect, useState } from 'react';
import { snapshot, toggleSaved } from './garage-store';
import { useSavedCar } from './use-garage';

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
  const saved = useSavedCar(carId);
  const [offered, setOffered] = useState(false);
  useEffect(() => {
    if (!offered) return;
    const timer = setTimeout(() => setOffered(false), OFFER_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [offered]);

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
        // The heart is the class's ::before (globals.css), filled when pressed: an icon in CSS, not
        // an SVG repeated in the markup of every card.
      />
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
