import type { LocationSummary, SpecialHoursEntry } from '@/modules/locations/server';
import { siteOrigin } from '@/modules/tenancy/tenancy.paths';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { dealerJsonLd, jsonLdText } from '../dealer-json-ld';

type Props = {
  tenant: Pick<Tenant, 'name' | 'url' | 'logoUrl'>;
  /** The request's host (for the canonical origin when the website has no configured address). */
  host: string;
  location: LocationSummary;
  /** Upcoming special hours (listUpcomingSpecialHours); only this location's are used. */
  specialHours?: readonly SpecialHoursEntry[];
};

/**
 * A location's LocalBusiness (AutoDealer, AutoRepair, AutoPartsStore) structured data with its
 * opening hours, for search engines. Render one per location on the contact and location pages.
 */
export function DealerJsonLd({ tenant, host, location, specialHours }: Props) {
  const data = dealerJsonLd({
    origin: siteOrigin(tenant, host),
    websiteName: tenant.name,
    logoUrl: tenant.logoUrl,
    location,
    specialHours,
  });
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />;
}
