'use client';

import { useEffect, useSyncExternalStore } from 'react';
import { loadGarage, serverSnapshot, snapshot, subscribe, type GarageState } from './garage-store';

/** The garage store's state, asked for once per page (GET /api/auth) by the first component that wants it. */
export function useGarage(): GarageState {
  const state = useSyncExternalStore(subscribe, snapshot, serverSnapshot);
  useEffect(() => {
    void loadGarage();
  }, []);
  return state;
}

/**
 * Whether this car is saved: a heart re-renders only when that changes, not when the store goes
 * from idle to loading to ready (24 hearts on a search page, each twice, right after hydration).
 */
export function useSavedCar(carId: number): boolean {
  const saved = useSyncExternalStore(
    subscribe,
    () => snapshot().saved.has(carId),
    () => serverSnapshot().saved.has(carId),
  );
  useEffect(() => {
    void loadGarage();
  }, []);
  return saved;
}

/** Whether the visitor is signed in, once the page has asked; null until it knows. */
export function useSignedIn(): boolean | null {
  const state = useGarage();
  return state.status === 'ready' ? state.signedIn : null;
}
