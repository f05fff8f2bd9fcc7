import { MapPinIcon } from '@/components/ui/icons';
import type { LocationSummary } from '../locations.types';
import { appleDirectionsUrl, googleDirectionsUrl } from '../locations.maps';
import { InteractiveMap } from './interactive-map';

type Props = { location: LocationSummary; mapsKey: string | null; headingLevel?: 'h2' | 'h3' };

const linkClass =
  'inline-flex min-h-11 items-center justify-center rounded-site border-2 border-brand px-4 font-semibold text-brand-text hover:bg-brand hover:text-brand-foreground';

/**
 * The map of a location at no cost: the address and links to directions in Google Maps and Apple
 * Maps (plain anchors). With a maps key, an interactive Google map loads when asked for.
 */
export function LocationMap({ location, mapsKey, headingLevel: Heading = 'h2' }: Props) {
  const { lat, long } = location.address;
  return (
    <section aria-labelledby={`map-${location.id}`} className="rounded-site border border-gray-200 bg-white p-5">
      <Heading id={`map-${location.id}`} className="text-lg font-bold text-gray-900">
        Map and directions
      </Heading>
      <div className="mt-3 flex items-start gap-3 rounded-site bg-[repeating-linear-gradient(45deg,#f3f4f6_0_12px,#e5e7eb_12px_13px)] p-4">
        <span className="mt-0.5 text-brand-text">
          <MapPinIcon size={28} />
        </span>
        <address className="not-italic">
          <span className="block font-semibold text-gray-900">{location.name}</span>
          <span className="block text-gray-800">{location.address.street}</span>
          <span className="block text-gray-800">{[location.address.city, location.address.state, location.address.postcode].filter(Boolean).join(' ')}</span>
        </address>
      </div>
      <div className="mt-4 flex flex-wrap gap-3">
        <a href={googleDirectionsUrl(location)} className={linkClass}>
          Directions in Google Maps
        </a>
        <a href={appleDirectionsUrl(location)} className={linkClass}>
          Directions in Apple Maps
        </a>
      </div>
      {mapsKey && lat != null && long != null ? <InteractiveMap apiKey={mapsKey} lat={lat} lng={long} name={location.name} /> : null}
    </section>
  );
}
