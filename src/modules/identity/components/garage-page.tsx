import type { Metadata } from 'next';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { GarageList } from './garage-list';

/** Whether `path` is this website's garage page (/my-garage, or a path of its own such as /mymotorama/saved). */
export function isGaragePath(tenant: Tenant, path: string): boolean {
  return tenant.config.garage.enabled && tenant.config.garage.path === path;
}

export const GARAGE_METADATA: Metadata = { title: 'My garage', robots: { index: false, follow: false } };

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
