'use client';

import { useEffect, useSyncExternalStore } from 'react';
import { loadGarage, serverSnapshot, snapshot, subscribe, type GarageState } from './garage-store';

/**
 * A value of the garage store's state, the store asked for once per page (GET /api/auth) by the first
 * component that wants it. The component re-renders only when that value changes: a heart reads
 * whether its car is saved, and is left alone while the store goes from idle to loading to ready (24
 * hearts on a search page, each twice, right after hydration).
 */
function useGarageValue<T>(select: (state: GarageState) => T): T {
  const value = useSyncExternalStore(
    subscribe,
    () => select(snapshot()),
    () => select(serverSnapshot()),
  );
  useEffect(() => {
    void loadGarage();
  }, []);
  return value;
}

/** The garage store's whole state. */
export const useGarage = (): GarageState => useGarageValue((state) => state);

/** Whether this car is saved. */
export const useSavedCar = (carId: number): boolean => useGarageValue((state) => state.saved.has(carId));

/** Whether the visitor is signed in, once the page has asked; null until it knows. */
export function useSignedIn(): boolean | null {
  const state = useGarage();
  return state.status === 'ready' ? state.signedIn : null;
}
