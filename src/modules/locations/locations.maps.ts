import type { LocationSummary } from './locations.types';

/** Direction links for a location (plain anchors: maps links do not open a new tab). Client-safe. */

function destination(location: Pick<LocationSummary, 'address'>): string {
  const { lat, long, full } = location.address;
  return lat != null && long != null ? `${lat},${long}` : full;
}

export function googleDirectionsUrl(location: Pick<LocationSummary, 'address'>): string {
  const url = new URL('https://www.google.com/maps/dir/');
  url.searchParams.set('api', '1');
  url.searchParams.set('destination', destination(location));
  return url.toString();
}

export function appleDirectionsUrl(location: Pick<LocationSummary, 'address' | 'name'>): string {
  const url = new URL('https://maps.apple.com/');
  url.searchParams.set('daddr', destination(location));
  url.searchParams.set('q', location.name);
  return url.toString();
}

/** The location's map link: its place URL when it has one, else a Google Maps search. */
export function mapLinkUrl(location: Pick<LocationSummary, 'address'>): string {
  if (location.address.placeUrl && /^https:\/\//.test(location.address.placeUrl)) return location.address.placeUrl;
  const url = new URL('https://www.google.com/maps/search/');
  url.searchParams.set('api', '1');
  url.searchParams.set('query', destination(location));
  return url.toString();
}

/** SPEC §8 maps loader texts, by script-loader state (SPEC §4: idle, loading, ready, error). */
export const MAPS_LOADER_TEXT = {
  idle: 'Google Maps is on idle',
  loading: 'Google Maps is loading',
  error: 'Google Maps is on error',
} as const;

export type MapsLoaderState = 'idle' | 'loading' | 'ready' | 'error';

export function mapsScriptUrl(apiKey: string, callback: string): string {
  const url = new URL('https://maps.googleapis.com/maps/api/js');
  url.searchParams.set('key', apiKey);
  url.searchParams.set('callback', callback);
  url.searchParams.set('loading', 'async');
  return url.toString();
}
