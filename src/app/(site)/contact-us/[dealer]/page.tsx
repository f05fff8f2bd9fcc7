import { GeneralContactSection } from '@/modules/leads/components/general-contact';
import { NOT_FOUND_METADATA } from '@/modules/content/content.route';
import { DealerJsonLd } from '@/modules/content/components/dealer-json-ld';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import { spell } from '@/lib/format';
import { ContactFormSlot } from '@/modules/locations/components/contact-form-slot';
import { LocationsDirectory, postcodeParam } from '@/modules/locations/components/locations-directory';
import { requestNow } from '@/modules/locations/components/request-now';
import { sessionSpecialHours } from '@/modules/locations/components/session-special-hours';
import { contactUsPath, findDealershipContact } from '@/modules/locations/locations.queries';
import { cachePageWhileWebsiteHolds, requireHost, requireTenant } from '@/modules/tenancy/tenancy.request';

/** /contact-us/{dealer-slug}: one dealership of the website, its locations and the contact form's place. */

type Props = {
  params: Promise<{ dealer: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tenant = await requireTenant();
  await cachePageWhileWebsiteHolds(tenant);
  const dealership = await findDealershipContact(tenant, (await params).dealer);
  if (!dealership) return NOT_FOUND_METADATA;
  return {
    title: `Contact ${dealership.name}`,
    description: `Opening hours, address and phone of ${dealership.name}.`,
    alternates: { canonical: contactUsPath(dealership.slug) },
  };
}

export default async function ContactDealershipPage({ params, searchParams }: Props) {
  const tenant = await requireTenant();
  await cachePageWhileWebsiteHolds(tenant);
  const dealership = await findDealershipContact(tenant, (await params).dealer);
  if (!dealership) notFound();
  const now = requestNow();
  const specialHours = await sessionSpecialHours(tenant, now);
  const host = await requireHost();
  return (
    <>
      {dealership.locations.map((location) => (
        <DealerJsonLd key={location.id} tenant={tenant} host={host} location={location} specialHours={specialHours} />
      ))}
      <PageHeader
        title={`Contact ${dealership.name}`}
        breadcrumbs={[{ label: 'Home', href: '/' }, { label: 'Contact us', href: '/contact' }, { label: dealership.name }]}
        lead={
          dealership.dealerLicenseNumber ? (
            <span className="text-base">
              {spell(tenant.config, 'Dealer licence')}: <strong>{dealership.dealerLicenseNumber}</strong>
            </span>
          ) : undefined
        }
      />
      <Container className="space-y-10 py-10 md:py-14">
        <ContactFormSlot phone={dealership.phone || tenant.phone} dealerName={dealership.name}>
          {/* A dealership with one location gets its enquiries there; otherwise the visitor chooses. */}
          <GeneralContactSection
            tenant={tenant}
            locationId={dealership.locations.length === 1 ? dealership.locations[0].id : null}
            showHeading={false}
          />
        </ContactFormSlot>
        <LocationsDirectory
          tenant={tenant}
          locations={dealership.locations}
          specialHours={specialHours}
          now={now}
          action={contactUsPath(dealership.slug)}
          postcode={postcodeParam((await searchParams).postcode)}
        />
      </Container>
    </>
  );
}
