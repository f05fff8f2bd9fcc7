/** Great-circle distance (haversine). Client-safe. */

/** SPEC §9. */
export const EARTH_RADIUS_KM = 6371;

export type LatLng = { lat: number; lng: number };

const radians = (degrees: number) => (degrees * Math.PI) / 180;

export function haversineKm(a: LatLng, b: LatLng): number {
  const dLat = radians(b.lat - a.lat);
  const dLng = radians(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Items sorted nearest first from `origin`, each with its distance; items without coordinates go
 * last (distance null) in their given order.
 */
export function sortByDistance<T>(items: T[], origin: LatLng, pointOf: (item: T) => LatLng | null): { item: T; km: number | null }[] {
  return items
    .map((item, index) => {
      const point = pointOf(item);
      return { item, index, km: point ? haversineKm(origin, point) : null };
    })
    .sort((a, b) => (a.km ?? Infinity) - (b.km ?? Infinity) || a.index - b.index)
    .map(({ item, km }) => ({ item, km }));
}
