import Link from 'next/link';
import type { ReactNode } from 'react';
import { LinkButton } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { ArrowRightIcon, PhoneIcon } from '@/components/ui/icons';
import { spell } from '@/lib/format';
import { telHref } from '@/modules/tenancy/tenancy.links';
import { searchPath } from '@/modules/tenancy/tenancy.paths';
import type { Tenant } from '@/modules/tenancy/tenancy.types';

/**
 * The content pages' two-column layout and the contact card beside content and form pages: a module
 * of its own, so pages that use them do not load the content page's islands (the FAQ accordion).
 */

/** The dealer's contact card beside content: call, enquire, browse stock. */
export function ContactAside({ tenant }: { tenant: Tenant }) {
  const phone = tenant.phone ? telHref(tenant.phone) : null;
  return (
    <aside aria-labelledby="content-aside-heading" className="lg:sticky lg:top-6">
      <div className="rounded-site border border-gray-200 bg-white p-6 shadow-sm">
        <h2 id="content-aside-heading" className="text-lg font-bold text-gray-900">
          {spell(tenant.config, 'Talk to our team')}
        </h2>
        <p className="mt-2 text-gray-700">
          {spell(tenant.config, 'Questions? Call us or send an enquiry and we will get back to you.')}
        </p>
        <div className="mt-5 flex flex-col gap-3">
          {phone ? (
            <LinkButton href={phone} variant="primary">
              <PhoneIcon size={18} />
              {tenant.phone}
            </LinkButton>
          ) : null}
          <LinkButton href="/contact" variant="outline">
            {spell(tenant.config, 'Send an enquiry')}
          </LinkButton>
          <Link
            href={searchPath(tenant)}
            prefetch={false}
            className="inline-flex min-h-11 items-center justify-center gap-1 rounded-site font-semibold text-brand-text underline-offset-2 hover:underline"
          >
            {spell(tenant.config, 'Browse our stock')}
            <ArrowRightIcon size={18} />
          </Link>
        </div>
      </div>
    </aside>
  );
}

/** Two columns from lg: the content and the contact card. */
export function ContentLayout({ tenant, children }: { tenant: Tenant; children: ReactNode }) {
  return (
    <Container className="grid gap-10 py-10 md:py-14 lg:grid-cols-[minmax(0,1fr)_20rem] lg:gap-14">
      <div className="min-w-0">{children}</div>
      <ContactAside tenant={tenant} />
    </Container>
  );
}
