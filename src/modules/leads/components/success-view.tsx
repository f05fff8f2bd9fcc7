import { LinkButton } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import { spell } from '@/lib/format';
import { searchPath } from '@/modules/tenancy/tenancy.paths';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { successLabel } from '../form-rules/flow';

/** The thank-you page after a lead: names what was received and offers the way on. */
export function SuccessView({ tenant, category, form }: { tenant: Tenant; category: string | undefined; form?: string }) {
  const label = successLabel(category, form);
  return (
    <>
      <PageHeader
        title="Thank you"
        lead={spell(tenant.config, `We have received your ${label}. Our team will be in touch shortly.`)}
        breadcrumbs={[{ label: 'Home', href: '/' }, { label: 'Thank you' }]}
      />
      <Container className="py-10 md:py-14">
        <div data-category={category ?? ''} className="flex flex-wrap gap-3">
          <LinkButton href={searchPath(tenant)} variant="primary">
            {spell(tenant.config, 'Browse our stock')}
          </LinkButton>
          <LinkButton href="/" variant="outline">
            Back to home
          </LinkButton>
        </div>
      </Container>
    </>
  );
}
