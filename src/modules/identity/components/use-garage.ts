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

/** Whether the visitor is signed in, once the page has asked; null until it knows. */
export function useSignedIn(): boolean | null {
  const state = useGarage();
  return state.status === 'ready' ? state.signedIn : null;
}
