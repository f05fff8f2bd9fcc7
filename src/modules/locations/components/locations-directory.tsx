import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { groupLocations } from '../locations.grouping';
import { nearestLocations } from '../locations.geocoding';
import { postcodeCountry } from '../locations.validation';
import type { LocationSummary, SpecialHoursEntry } from '../locations.types';
import { LocationCard } from './location-card';
import { PostcodeFinder } from './postcode-finder';

type Props = {
  tenant: Tenant;
  locations: LocationSummary[];
  specialHours: SpecialHoursEntry[];
  now: Date;
  /** The page's own path: the finder submits to it. */
  action: string;
  /** ?postcode= of the request, if any. */
  postcode: string | undefined;
};

const SECTIONS = [
  { group: 'sales', title: 'Sales' },
  { group: 'service-and-parts', title: 'Service & parts' },
] as const;

/** The postcode from a query string value ('?postcode=2000', repeated or missing). */
export function postcodeParam(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.slice(0, 20) : undefined;
}

/**
 * The locations list with the postcode finder: sales and service/parts sections in position
 * order, or, for a postcode, every location nearest first with its distance.
 */
export async function LocationsDirectory({ tenant, locations, specialHours, now, action, postcode }: Props) {
  const result = postcode !== undefined ? await nearestLocations(tenant, locations, postcode) : null;
  const specialOf = (location: LocationSummary) => specialHours.filter((s) => s.locationId === location.id);
  const card = (location: LocationSummary, distanceKm?: number | null) => (
    <li key={location.id}>
      <LocationCard tenant={tenant} location={location} specialHours={specialOf(location)} now={now} distanceKm={distanceKm} />
    </li>
  );
  const groups = groupLocations(locations);
  const sections = SECTIONS.filter(({ group }) => groups[group].length > 0);
  const country = postcodeCountry(tenant.config.locale);

  return (
    <div className="space-y-8">
      {locations.length > 1 ? (
        <div id="find" className="rounded-site border border-gray-200 bg-gray-50 p-5">
          <h2 className="text-lg font-bold text-gray-900">Find your nearest location</h2>
          <div className="mt-3">
            <PostcodeFinder
              key={postcode ?? ''}
              action={action}
              country={country}
              postcode={postcode ?? ''}
              error={result && result.status !== 'found' ? result.message : null}
              label={country === 'US' ? 'Your ZIP code' : 'Your postcode'}
            />
          </div>
        </div>
      ) : null}

      {result?.status === 'found' ? (
        <section aria-labelledby="nearest-heading">
          <h2 id="nearest-heading" className="text-2xl font-bold text-gray-900">
            Nearest to {result.postcode}
          </h2>
          <ol className="mt-4 grid gap-5" aria-label={`Locations nearest to ${result.postcode}`}>
            {result.results.map(({ location, km }) => card(location, km))}
          </ol>
        </section>
      ) : sections.length > 1 ? (
        sections.map(({ group, title }) => (
          <section key={group} aria-labelledby={`group-${group}`}>
            <h2 id={`group-${group}`} className="text-2xl font-bold text-gray-900">
              {title}
            </h2>
            <ul className="mt-4 grid gap-5">{groups[group].map((location) => card(location))}</ul>
          </section>
        ))
      ) : (
        <ul className="grid gap-5" aria-label="Our locations">
          {locations.map((location) => card(location))}
        </ul>
      )}
    </div>
  );
}
