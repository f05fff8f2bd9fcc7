'use client';

import { useEffect, useSyncExternalStore } from 'react';
import { loadGarage, serverSnapshot, snapshot, subscribe } from './garage-store';

/** Whether the visitor is signed in, once the page has asked (GET /api/auth, once per page); null until it knows. */
export function useSignedIn(): boolean | null {
  const state = useSyncExternalStore(subscribe, snapshot, serverSnapshot);
  useEffect(() => {
    void loadGarage();
  }, []);
  return state.status === 'ready' ? state.signedIn : null;
}
