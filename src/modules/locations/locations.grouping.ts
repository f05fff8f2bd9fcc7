import type { LocationGroup, LocationType, LocationSummary } from './locations.types';

/** SPEC §9: reviews are shown only from this average rating up. */
export const REVIEWS_MIN_RATING = 4;

/** location_type as stored: '' (and anything unknown) means sales. */
export function normaliseLocationType(value: string): LocationType {
  return value === 'service' || value === 'parts' || value === 'service-and-parts' ? value : 'sales';
}

/** Reviews to show: null below the minimum rating or without any review. */
export function visibleReviews(count: number, averageRating: number | null): { count: number; averageRating: number } | null {
  if (averageRating == null || count <= 0 || averageRating < REVIEWS_MIN_RATING) return null;
  return { count, averageRating };
}

/** Whether a location belongs to a group. Service-and-parts locations count as service and as parts. */
export function inLocationGroup(location: Pick<LocationSummary, 'primary' | 'locationType'>, group: LocationGroup): boolean {
  const type = location.locationType;
  switch (group) {
    case 'all':
      return true;
    case 'primary':
      return location.primary;
    case 'sales':
      return type === 'sales';
    case 'service':
      return type === 'service' || type === 'service-and-parts';
    case 'parts':
      return type === 'parts' || type === 'service-and-parts';
    case 'service-and-parts':
      return type === 'service' || type === 'parts' || type === 'service-and-parts';
  }
}

/** The locations of each group, keeping the given (position) order. */
export function groupLocations<T extends Pick<LocationSummary, 'primary' | 'locationType'>>(locations: T[]): Record<LocationGroup, T[]> {
  const groups = {} as Record<LocationGroup, T[]>;
  for (const group of ['primary', 'sales', 'service', 'parts', 'service-and-parts', 'all'] as const) {
    groups[group] = locations.filter((location) => inLocationGroup(location, group));
  }
  return groups;
}

/** Locations that buy cars from the public (location_subtype includes buying). */
export function buyingLocations<T extends Pick<LocationSummary, 'locationSubtypes'>>(locations: T[]): T[] {
  return locations.filter((location) => location.locationSubtypes.includes('buying'));
}

/** Headings for the groups as the contact page shows them. */
export const LOCATION_TYPE_LABELS: Record<LocationType, string> = {
  sales: 'Sales',
  service: 'Service',
  parts: 'Parts',
  'service-and-parts': 'Service & parts',
};
