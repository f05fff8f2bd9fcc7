'use client';

import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { MAPS_LOADER_TEXT, mapsScriptUrl, type MapsLoaderState } from '../locations.maps';

type Props = { apiKey: string; lat: number; lng: number; name: string };

type GoogleMaps = {
  maps: {
    Map: new (element: HTMLElement, options: object) => unknown;
    Marker: new (options: object) => unknown;
  };
};

export const MAPS_CALLBACK = '__dealerMapsReady';
const CALLBACK = MAPS_CALLBACK;
let loading: Promise<GoogleMaps> | null = null;

/** Loads the Maps JavaScript API once per page; after a failed load the next call tries again. */
export function loadGoogleMaps(apiKey: string): Promise<GoogleMaps> {
  const existing = (window as unknown as { google?: GoogleMaps }).google;
  if (existing?.maps?.Map) return Promise.resolve(existing);
  loading ??= new Promise<GoogleMaps>((resolve, reject) => {
    (window as unknown as Record<string, unknown>)[CALLBACK] = () => resolve((window as unknown as { google: GoogleMaps }).google);
    const script = document.createElement('script');
    script.src = mapsScriptUrl(apiKey, CALLBACK);
    script.async = true;
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error('Google Maps failed to load'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/**
 * The interactive Google map, only for websites with a maps key and only once the visitor asks
 * for it (no script, no cost before that). Says which state the loader is in.
 */
export function InteractiveMap({ apiKey, lat, lng, name }: Props) {
  const [state, setState] = useState<MapsLoaderState>('idle');
  const element = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (state !== 'loading') return;
    let cancelled = false;
    loadGoogleMaps(apiKey)
      .then((google) => {
        if (cancelled || !element.current) return;
        const map = new google.maps.Map(element.current, { center: { lat, lng }, zoom: 15, clickableIcons: false });
        new google.maps.Marker({ map, position: { lat, lng }, title: name });
        setState('ready');
      })
      .catch(() => !cancelled && setState('error'));
    return () => {
      cancelled = true;
    };
  }, [state, apiKey, lat, lng, name]);

  return (
    <div className="mt-4">
      <p role="status" className="sr-only">
        {state === 'ready' ? '' : MAPS_LOADER_TEXT[state]}
      </p>
      {state === 'ready' || state === 'loading' ? null : (
        <Button variant="outline" size="sm" onClick={() => setState('loading')}>
          {state === 'error' ? 'Try the interactive map again' : 'Show interactive map'}
        </Button>
      )}
      {state === 'loading' || state === 'error' ? (
        <p className="mt-2 text-sm text-gray-700" aria-hidden="true">
          {MAPS_LOADER_TEXT[state]}
        </p>
      ) : null}
      <div
        ref={element}
        role="region"
        aria-label={`Interactive map of ${name}`}
        hidden={state !== 'ready' && state !== 'loading'}
        className="mt-3 h-80 w-full overflow-hidden rounded-site border border-gray-200 bg-gray-100"
      />
    </div>
  );
}
