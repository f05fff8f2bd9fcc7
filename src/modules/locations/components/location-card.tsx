import Link from 'next/link';
import { MapPinIcon, PhoneIcon } from '@/components/ui/icons';
import { formatDistance, spell } from '@/lib/format';
import { telHref } from '@/modules/tenancy/tenancy.links';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { LOCATION_TYPE_LABELS } from '../locations.grouping';
import { cachePageUntil } from '@/lib/page-cache';
import { holidayRows, nextHoursChange, openingHoursRows, openStatus, openStatusText } from '../locations.hours';
import { mapLinkUrl } from '../locations.maps';
import { ratingText } from '../locations.reviews';
import type { LocationSummary, SpecialHoursEntry } from '../locations.types';
import { HolidayHoursDialog } from './holiday-hours-dialog';
import { OpeningHoursList } from './opening-hours-list';

type Props = {
  tenant: Tenant;
  location: LocationSummary;
  /** Special hours of this location (from website_session_data). */
  specialHours: SpecialHoursEntry[];
  now: Date;
  distanceKm?: number | null;
  headingLevel?: 'h2' | 'h3';
  /** On the location's own page the name is the page title and the card does not link to itself. */
  detailed?: boolean;
};

const linkClass = 'font-semibold text-brand-text underline-offset-2 hover:underline';


/** One location: address, phone, licence, reviews, open-now, the week's hours and holiday hours. */
export function LocationCard({ tenant, location, specialHours, now, distanceKm, headingLevel: Heading = 'h3', detailed = false }: Props) {
  const { config } = tenant;
  const SubHeading = Heading === 'h2' ? 'h3' : 'h4';
  const rows = openingHoursRows(location.openingHours, { timeZone: location.timeZone, now, specialHours, settings: location.settings });
  const status = openStatus(location.openingHours, { timeZone: location.timeZone, now, specialHours });
  const holidays = holidayRows(specialHours, { timeZone: location.timeZone, now, locale: config.locale, settings: location.settings });
  // Rendered on the server at `now`: a cached copy of the page must not outlive what it says.
  cachePageUntil(nextHoursChange(location.openingHours, { timeZone: location.timeZone, now, specialHours }));
  const phones = [
    { label: 'Phone', number: location.phone },
    { label: 'Landline', number: location.landlinePhone },
    { label: 'Mobile', number: location.mobile },
  ].filter((p): p is { label: string; number: string } => Boolean(p.number && telHref(p.number)));

  return (
    <article
      aria-labelledby={`location-${location.id}`}
      data-location={location.slug}
      className="flex flex-col rounded-site border border-gray-200 bg-white p-5 shadow-sm md:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div>
          <Heading id={`location-${location.id}`} className="text-xl font-bold text-gray-900">
            {detailed ? (
              'Contact and opening hours'
            ) : (
              <Link href={location.path} prefetch={false} className="hover:underline">
                {location.name}
              </Link>
            )}
          </Heading>
          <p className="mt-1 text-sm font-medium text-gray-600">{spell(config, LOCATION_TYPE_LABELS[location.locationType])}</p>
        </div>
        {distanceKm != null ? (
          <p className="rounded-full bg-brand px-3 py-1 text-sm font-bold text-brand-foreground" data-testid="distance">
            {formatDistance(config, distanceKm)} away
          </p>
        ) : null}
      </div>

      <p className={`mt-3 flex items-center gap-2 text-sm font-semibold ${status.open ? 'text-green-800' : 'text-gray-700'}`}>
        <span aria-hidden="true" className={`inline-block size-2.5 rounded-full ${status.open ? 'bg-green-600' : 'bg-gray-400'}`} />
        {openStatusText(status)}
      </p>

      <div className="mt-4 grid gap-x-10 gap-y-5 md:grid-cols-2">
        <div className="space-y-3 text-[0.95rem] text-gray-800">
          <address className="flex gap-2 not-italic">
            <span className="mt-0.5 shrink-0 text-gray-500">
              <MapPinIcon size={18} />
            </span>
            <span>
              {location.address.street}
              <br />
              {[location.address.city, location.address.state, location.address.postcode].filter(Boolean).join(' ')}
              <br />
              <a href={mapLinkUrl(location)} className={linkClass}>
                View on map
              </a>
            </span>
          </address>
          <ul className="space-y-1">
            {phones.map((phone) => (
              <li key={phone.label} className="flex items-center gap-2">
                <span className="text-gray-500">
                  <PhoneIcon size={18} />
                </span>
                <span className="sr-only">{phone.label}:</span>
                <a href={telHref(phone.number)!} className={linkClass}>
                  {phone.number}
                </a>
              </li>
            ))}
          </ul>
          {location.dealerLicenseNumber ? (
            <p className="text-sm text-gray-700">
              {spell(config, 'Dealer licence')}: <span className="font-semibold">{location.dealerLicenseNumber}</span>
            </p>
          ) : null}
          {location.reviews ? (
            <p className="flex items-center gap-1.5 text-sm text-gray-800">
              <span aria-hidden="true" className="text-amber-500">
                ★
              </span>
              {ratingText(location.reviews, config.locale)}
            </p>
          ) : null}
        </div>
        <div>
          <SubHeading className="mb-1 text-sm font-bold tracking-wide text-gray-700 uppercase">Opening hours</SubHeading>
          <OpeningHoursList rows={rows} contactPath={location.contactPath} config={config} caption={`Opening hours of ${location.name}`} />
          <div className="mt-3">
            <HolidayHoursDialog
              locationName={location.name}
              rows={holidays}
              appointmentOnly={location.settings.appointmentOnly === true}
              phone={location.phone}
              phoneHref={telHref(location.phone)}
              notice={config.specialHoursNotice}
            />
          </div>
        </div>
      </div>

      {detailed ? null : (
        <div className="mt-5 flex flex-wrap gap-x-5 gap-y-2 border-t border-gray-100 pt-4 text-sm">
          <Link href={location.path} prefetch={false} className={linkClass}>
            Location details
          </Link>
          <Link href={location.contactPath} prefetch={false} className={linkClass}>
            Contact {location.dealershipName}
          </Link>
        </div>
      )}
    </article>
  );
}
