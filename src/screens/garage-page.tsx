import { cookies } from 'next/headers';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { GarageList } from '@/modules/identity';
import { withoutSessionCookies } from '@/modules/identity/server';
import { AlertSettings, SavedSearchesList } from '@/modules/alerts';
import { consentWording } from '@/modules/alerts/alerts.consent';
import { vehicleNoun } from '@/modules/stock/stock.rules';

/**
 * The garage page: the visitor's cars and saved searches load in the browser; a visitor without a
 * session cookie gets the sign-in prompt from the server.
 */
export async function GaragePage({ tenant }: { tenant: Tenant }) {
  const { config } = tenant;
  const signedOut = withoutSessionCookies(await cookies());
  const signInPath = `/sign-in?next=${encodeURIComponent(config.garage.path)}`;
  return (
    <>
      <PageHeader title="My garage" lead="The cars and searches you saved, with what they show now." breadcrumbs={[{ label: 'Home', href: '/' }, { label: 'My garage' }]} />
      <Container className="py-8">
        <GarageList vehiclePath={config.vehiclePath} signInPath={signInPath} money={{ locale: config.locale, currency: config.currency }} signedOut={signedOut} />
        <SavedSearchesList nouns={{ one: vehicleNoun(config, 1), many: vehicleNoun(config) }} locale={config.locale} />
        <AlertSettings consent={consentWording(tenant)} locale={config.locale} />
      </Container>
    </>
  );
}
