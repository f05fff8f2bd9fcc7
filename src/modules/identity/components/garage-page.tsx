import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { GarageList } from './garage-list';

/** The garage page: the same for everyone; the visitor's cars load in the browser. */
export function GaragePage({ tenant }: { tenant: Tenant }) {
  const signInPath = `/sign-in?next=${encodeURIComponent(tenant.config.garage.path)}`;
  return (
    <>
      <PageHeader title="My garage" lead="The cars you saved, with their price and status now." breadcrumbs={[{ label: 'Home', href: '/' }, { label: 'My garage' }]} />
      <Container className="py-8">
        <GarageList vehiclePath={tenant.config.vehiclePath} signInPath={signInPath} money={{ locale: tenant.config.locale, currency: tenant.config.currency }} />
      </Container>
    </>
  );
}
