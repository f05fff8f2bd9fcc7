import type { Metadata } from 'next';
import { LinkButton } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { spell } from '@/lib/format';
import { StockSearchForm } from '@/modules/tenancy/components/stock-search-form';
import { searchPath } from '@/modules/tenancy/tenancy.paths';
import { findTenantByHost } from '@/modules/tenancy/tenancy.queries';
import { requestHost } from '@/modules/tenancy/tenancy.request';

/** Next adds <meta name="robots" content="noindex"> to every 404 response itself. */
export const metadata: Metadata = { title: 'Page not found' };

/**
 * The 404 page. On a dealer's website it keeps the dealer's header and footer (from the layout)
 * and offers a way back; for a host no website answers to it is plain and names no dealer.
 */
export default async function NotFound() {
  const host = await requestHost();
  const tenant = host ? await findTenantByHost(host) : null;

  if (!tenant) {
    return (
      <main id="main" className="mx-auto max-w-xl px-6 py-24 text-center">
        <h1 className="text-3xl font-bold">Page not found</h1>
        <p className="mt-4 text-gray-700">There is nothing at this address.</p>
      </main>
    );
  }

  return (
    <Container className="py-16 md:py-24">
      <div className="mx-auto max-w-2xl text-center">
        <p className="text-sm font-bold tracking-widest text-brand-text uppercase">Error 404</p>
        <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-gray-900 md:text-4xl">Page not found</h1>
        <p className="mt-4 text-lg text-gray-700">
          {spell(
            tenant.config,
            'Sorry, we could not find that page. It may have moved, or the vehicle may have been sold.',
          )}
        </p>
        <div className="mx-auto mt-8 max-w-lg rounded-site border border-gray-200 bg-white p-5 text-left shadow-sm">
          <StockSearchForm
            action={searchPath(tenant)}
            id="not-found-search-q"
            labels={{ label: spell(tenant.config, 'Search our stock'), placeholder: 'Make, model or keyword', submit: 'Search' }}
          />
        </div>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <LinkButton href="/" variant="primary">
            Back to home
          </LinkButton>
          <LinkButton href="/contact" variant="outline">
            {spell(tenant.config, 'Contact us')}
          </LinkButton>
        </div>
      </div>
    </Container>
  );
}
