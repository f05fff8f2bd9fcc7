'use client';

import { useEffect, useSyncExternalStore } from 'react';
import { cn } from '@/components/ui/cn';
import { loadGarage, serverSnapshot, snapshot, subscribe, toggleSaved } from './garage-store';

/**
 * The heart (issue 14): a button with its pressed state and a label naming the car. Rendered the
 * same for everyone (the page may come from the page cache); its state arrives from /api/auth after
 * load and never changes its size, so nothing shifts.
 */
export function SaveCarButton({ carId, carName, className }: { carId: number; carName: string; className?: string }) {
  const state = useSyncExternalStore(subscribe, snapshot, serverSnapshot);
  useEffect(() => {
    void loadGarage();
  }, []);
  const saved = state.saved.has(carId);
  return (
    <button
      type="button"
      aria-pressed={saved}
      aria-label={saved ? `Remove ${carName} from your garage` : `Save ${carName} to your garage`}
      title={saved ? 'Saved to your garage' : 'Save to your garage'}
      onClick={() => void toggleSaved(carId)}
      className={cn('inline-flex size-10 items-center justify-center rounded-full bg-white/95 text-rose-600 shadow-sm ring-1 ring-slate-200 hover:bg-white focus-visible:outline-2', className)}
    >
      <svg viewBox="0 0 24 24" aria-hidden="true" className="size-5" fill={saved ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2">
        <path d="M12 21s-7.5-4.6-9.5-9.1C1.1 8.6 3.2 5 6.7 5c2 0 3.5 1.1 4.3 2.5h2C13.8 6.1 15.3 5 17.3 5c3.5 0 5.6 3.6 4.2 6.9C19.5 16.4 12 21 12 21z" strokeLinejoin="round" />
      </svg>
    </button>
  );
}
