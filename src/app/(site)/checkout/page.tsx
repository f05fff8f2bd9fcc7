import type { Metadata } from 'next';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import { MyReservations } from '@/modules/checkout/components/my-reservations';
import { PaymentReturn } from '@/modules/checkout/components/payment-return';
import { requireTenant } from '@/modules/tenancy/tenancy.request';

/**
 * /checkout (SPEC §2): the visitor's reservations in this browser and their live status; with
 * ?reservation={id}, first the outcome of the payment the visitor is back from (decision 041).
 */
export const metadata: Metadata = { title: 'Your reservations', robots: { index: false, follow: false } };

export default async function Page() {
  const tenant = await requireTenant();
  return (
    <>
      <PageHeader title="Your reservations" lead="The cars you reserved in this browser." breadcrumbs={[{ label: 'Home', href: '/' }, { label: 'Your reservations' }]} />
      <Container className="py-8 md:py-12">
        <PaymentReturn carBasePath={`/${tenant.config.vehiclePath}`} />
        <MyReservations carBasePath={`/${tenant.config.vehiclePath}`} dates={{ locale: tenant.config.locale, timeZone: tenant.config.timeZone }} />
      </Container>
    </>
  );
}
