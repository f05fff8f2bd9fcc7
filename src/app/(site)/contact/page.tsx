import { GeneralContactSection } from '@/modules/leads/components/general-contact';
import { DealerJsonLd } from '@/modules/content/components/dealer-json-ld';
import type { Metadata } from 'next';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import { ContactFormSlot } from '@/modules/locations/components/contact-form-slot';
import { LocationsDirectory, postcodeParam } from '@/modules/locations/components/locations-directory';
import { requestNow } from '@/modules/locations/components/request-now';
import { sessionSpecialHours } from '@/modules/locations/components/session-special-hours';
import { listVisibleLocations } from '@/modules/locations/locations.queries';
import { cachePageWhileWebsiteHolds, requireHost, requireTenant } from '@/modules/tenancy/tenancy.request';

/** /contact: every visible location with hours, the postcode finder and the contact form's place. */

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  const tenant = await requireTenant();
  return {
    title: 'Contact us',
    description: `Locations, opening hours and phone numbers of ${tenant.name}.`,
    alternates: { canonical: '/contact' },
  };
}

export default async function ContactPage({ searchParams }: Props) {
  const tenant = await requireTenant();
  await cachePageWhileWebsiteHolds(tenant);
  const now = requestNow();
  const [locations, specialHours, host] = await Promise.all([listVisibleLocations(tenant), sessionSpecialHours(tenant, now), requireHost()]);
  return (
    <>
      {locations.map((location) => (
        <DealerJsonLd key={location.id} tenant={tenant} host={host} location={location} specialHours={specialHours} />
      ))}
      <PageHeader title="Contact us" breadcrumbs={[{ label: 'Home', href: '/' }, { label: 'Contact us' }]} />
      <Container className="space-y-10 py-10 md:py-14">
        <ContactFormSlot phone={tenant.phone} dealerName={tenant.name}>
          <GeneralContactSection tenant={tenant} showHeading={false} />
        </ContactFormSlot>
        <LocationsDirectory
          tenant={tenant}
          locations={locations}
          specialHours={specialHours}
          now={now}
          action="/contact"
          postcode={postcodeParam((await searchParams).postcode)}
        />
      </Container>
    </>
  );
}
