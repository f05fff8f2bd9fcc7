import 'server-only';
import { z } from 'zod';
import type { Geocoder } from '../locations.geocoding';

/**
 * Google's Geocoding API (SPEC §7: by postal_code and country, reading
 * results[0].geometry.location). Used only when GOOGLE_GEOCODING_API_KEY is set.
 */

const responseSchema = z.object({
  status: z.string(),
  results: z
    .array(z.object({ geometry: z.object({ location: z.object({ lat: z.number(), lng: z.number() }) }) }))
    .default([]),
});

export class GeocodingUnavailableError extends Error {}

export function googleGeocoder(apiKey: string, options: { fetch?: typeof fetch; timeoutMs?: number; endpoint?: string } = {}): Geocoder {
  const doFetch = options.fetch ?? fetch;
  const endpoint = options.endpoint ?? 'https://maps.googleapis.com/maps/api/geocode/json';
  return {
    name: 'google',
    async geocodePostcode(country, postcode) {
      const url = new URL(endpoint);
      url.searchParams.set('components', `postal_code:${postcode}|country:${country}`);
      url.searchParams.set('key', apiKey);
      let body: unknown;
      try {
        const response = await doFetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 5000) });
        if (!response.ok) throw new GeocodingUnavailableError(`geocoding answered HTTP ${response.status}`);
        body = await response.json();
      } catch (error) {
        if (error instanceof GeocodingUnavailableError) throw error;
        throw new GeocodingUnavailableError(`geocoding request failed: ${(error as Error).message}`);
      }
      const parsed = responseSchema.safeParse(body);
      if (!parsed.success) throw new GeocodingUnavailableError('geocoding answered an unexpected body');
      if (parsed.data.status === 'ZERO_RESULTS') return null;
      if (parsed.data.status !== 'OK') throw new GeocodingUnavailableError(`geocoding status ${parsed.data.status}`);
      const first = parsed.data.results[0];
      return first ? { lat: first.geometry.location.lat, lng: first.geometry.location.lng } : null;
    },
  };
}
