import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import { spell } from '@/lib/format';
import { ContactAside } from '@/modules/content/components/content-layout';
import { canonicalContentPath, EXTERNAL_LINK_REL } from '@/modules/tenancy/tenancy.links';
import { getServiceBookingUrl } from '@/modules/widgets/widgets.queries';
import { requireTenant } from '@/modules/tenancy/tenancy.request';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { getLeadCar, getLeadSite, listLeadLocations } from '@/modules/leads/server';
import { EnquiryForm, RequestPhotosForm, TestDriveForm } from '@/modules/leads/components/car-forms';
import { PartsForm, PhotographyForm, ServiceForm, ValuationForm } from '@/modules/leads/components/enquiry-forms';

/**
 * The enquiry pages (SPEC §2 routes): each route file under app/(site)/ is one line that
 * names its kind here. Car forms take ?car_id=… (the car page links here when JavaScript is off).
 */

export type LeadPageKind =
  | 'enquire'
  | 'test-drive'
  | 'request-photos'
  | 'trade-in'
  | 'sell-my-car'
  | 'service'
  | 'parts'
  | 'photography';

type PageText = { title: string; lead: string; canonical: string };

const PAGES: Record<LeadPageKind, PageText> = {
  enquire: { title: 'Enquire Now', lead: 'Ask us anything about this vehicle.', canonical: '/enquire' },
  'test-drive': { title: 'Book a Test Drive', lead: 'Pick a time and we will have the car ready.', canonical: '/book-test-drive' },
  'request-photos': { title: 'Request Photos', lead: 'We will send you more photos of this vehicle.', canonical: '/request-photos' },
  'trade-in': { title: 'Trade-In Valuation', lead: 'Find out what your vehicle is worth as a trade-in.', canonical: '/trade-in' },
  'sell-my-car': { title: 'Sell My Car', lead: 'Get an offer for your vehicle from our team.', canonical: '/sell-my-car' },
  service: { title: 'Book a Service', lead: 'Factory-trained technicians and genuine parts.', canonical: '/service' },
  parts: {
    title: 'Vehicle Parts and Accessories',
    lead: 'Genuine parts and accessories, ordered in for you.',
    canonical: '/vehicle-parts-and-accessories',
  },
  photography: { title: 'Photography', lead: 'Professional vehicle photography by our team.', canonical: '/pages/photography' },
};

const CAR_KINDS: LeadPageKind[] = ['enquire', 'request-photos'];

export type LeadPageProps = {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function leadPageMetadata(kind: LeadPageKind): Promise<Metadata> {
  const tenant = await requireTenant();
  const page = PAGES[kind];
  return {
    title: spell(tenant.config, page.title),
    description: spell(tenant.config, page.lead),
    alternates: {
      canonical: kind === 'photography' ? canonicalContentPath(tenant.config, { slug: 'photography' }) : page.canonical,
    },
  };
}

export async function LeadPage({ kind, searchParams }: LeadPageProps & { kind: LeadPageKind }) {
  const tenant = await requireTenant();
  const query = await searchParams;
  const [site, car] = await Promise.all([getLeadSite(tenant), getLeadCar(tenant, query.car_id)]);
  // The car forms are about one car: without a listed car of this website there is no form.
  if (CAR_KINDS.includes(kind) && !car) notFound();
  const { leads } = tenant.config;
  const page = PAGES[kind];

  let form: ReactNode;
  switch (kind) {
    case 'enquire':
      form = <EnquiryForm site={site} car={car!} submitLabel={leads.enquirySubmitLabel} showHeading={false} />;
      break;
    case 'test-drive':
      form = <TestDriveForm site={site} car={car} />;
      break;
    case 'request-photos':
      form = <RequestPhotosForm site={site} car={car!} showHeading={false} />;
      break;
    case 'trade-in':
    case 'sell-my-car':
      form = <ValuationForm site={site} kind={kind} car={car} />;
      break;
    default: {
      const types = kind === 'service' ? ['service', 'service-and-parts'] : kind === 'parts' ? ['parts', 'service-and-parts'] : undefined;
      const props = {
        site,
        locations: await listLeadLocations(tenant, types),
        sourceOptions: leads.sourceOptions,
        submitLabel: leads.enquirySubmitLabel,
        showHeading: false,
      };
      form = kind === 'service' ? <ServiceForm {...props} /> : kind === 'parts' ? <PartsForm {...props} /> : <PhotographyForm {...props} />;
      // The dealer's online service booking (xtime), where it has one, before the request form.
      const booking = kind === 'service' ? await getServiceBookingUrl(tenant) : null;
      if (booking) {
        form = (
          <>
            <p className="mb-6">
              <a
                href={booking}
                target="_blank"
                rel={EXTERNAL_LINK_REL}
                data-widget="service-booking"
                className="inline-flex min-h-12 items-center rounded-site bg-brand px-5 font-semibold text-brand-foreground hover:brightness-110"
              >
                Book your service online<span className="sr-only"> (opens in a new tab)</span>
              </a>
            </p>
            {form}
          </>
        );
      }
    }
  }

  return (
    <LeadPageLayout tenant={tenant} title={page.title} lead={car ? car.name : page.lead}>
      {form}
    </LeadPageLayout>
  );
}

export function LeadPageLayout({ tenant, title, lead, children }: { tenant: Tenant; title: string; lead: string; children: ReactNode }) {
  const heading = spell(tenant.config, title);
  return (
    <>
      <PageHeader title={heading} lead={spell(tenant.config, lead)} breadcrumbs={[{ label: 'Home', href: '/' }, { label: heading }]} />
      <Container className="py-10 md:py-14">
        <div className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="rounded-site border border-gray-200 bg-white p-5 shadow-sm sm:p-8">{children}</div>
          <ContactAside tenant={tenant} />
        </div>
      </Container>
    </>
  );
}
