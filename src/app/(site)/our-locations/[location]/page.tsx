import { NOT_FOUND_METADATA } from '@/modules/content/content.route';
import { DealerJsonLd } from '@/modules/content/components/dealer-json-ld';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import { LocationCard } from '@/modules/locations/components/location-card';
import { LocationMap } from '@/modules/locations/components/location-map';
import { requestNow } from '@/modules/locations/components/request-now';
import { sessionSpecialHours } from '@/modules/locations/components/session-special-hours';
import { findVisibleLocation, getMapsKey } from '@/modules/locations/locations.queries';
import { cachePageWhileWebsiteHolds, requireHost, requireTenant } from '@/modules/tenancy/tenancy.request';

/** /our-locations/{location}: one visible location with hours, holiday hours and its map. */

type Props = { params: Promise<{ location: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tenant = await requireTenant();
  await cachePageWhileWebsiteHolds(tenant);
  const location = await findVisibleLocation(tenant, (await params).location);
  if (!location) return NOT_FOUND_METADATA;
  return {
    title: location.name,
    description: `${location.name}: ${location.address.full}. Opening hours, holiday hours, phone and directions.`,
    alternates: { canonical: location.path },
  };
}

export default async function LocationPage({ params }: Props) {
  const tenant = await requireTenant();
  await cachePageWhileWebsiteHolds(tenant);
  const location = await findVisibleLocation(tenant, (await params).location);
  if (!location) notFound();
  const now = requestNow();
  const [specialHours, mapsKey, host] = await Promise.all([sessionSpecialHours(tenant, now), getMapsKey(tenant), requireHost()]);
  return (
    <>
      <DealerJsonLd tenant={tenant} host={host} location={location} specialHours={specialHours} />
      <PageHeader
        title={location.name}
        breadcrumbs={[{ label: 'Home', href: '/' }, { label: 'Contact us', href: '/contact' }, { label: location.name }]}
        lead={location.address.full}
      />
      <Container className="grid gap-8 py-10 md:py-14 lg:grid-cols-[3fr_2fr]">
        <LocationCard
          tenant={tenant}
          location={location}
          specialHours={specialHours.filter((s) => s.locationId === location.id)}
          now={now}
          headingLevel="h2"
          detailed
        />
        <div className="space-y-6">
          <LocationMap location={location} mapsKey={mapsKey} />
          <p>
            <Link href={location.contactPath} prefetch={false} className="font-semibold text-brand-text underline underline-offset-2">
              Contact {location.dealershipName}
            </Link>
          </p>
        </div>
      </Container>
    </>
  );
}
