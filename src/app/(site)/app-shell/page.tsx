import type { Metadata } from 'next';
import { Container } from '@/components/ui/container';
import { HelpLinks } from '@/modules/tenancy/components/home-sections';
import { cachePageWhileWebsiteHolds, requireTenant } from '@/modules/tenancy/tenancy.request';
import { searchPath } from '@/modules/tenancy/tenancy.paths';
import { spell } from '@/lib/format';

/**
 * /_app (SPEC §2: the application shell page): the website's shell (header, navigation, footer,
 * from the layout) around the smallest page that lets a visitor go on (the stock search and the
 * main journeys), with no data of its own. What an installed or offline-first client shows first;
 * not indexed. Served at /_app by a rewrite (next.config.ts): Next answers 404 to a page route
 * named /_app itself (a Pages Router name it blocks), so the page lives at /app-shell.
 */
export const metadata: Metadata = { title: 'Home', robots: { index: false, follow: true }, alternates: { canonical: '/_app' } };

export default async function AppShellPage() {
  const tenant = await requireTenant();
  await cachePageWhileWebsiteHolds(tenant);
  return (
    <>
      <Container className="py-8 md:py-12" data-app-shell>
        <h1 className="text-3xl font-extrabold tracking-tight text-gray-900 md:text-4xl">{tenant.name}</h1>
        <p className="mt-3 text-lg text-gray-700">
          <a href={searchPath(tenant)} className="font-semibold text-brand-text underline underline-offset-2">
            {spell(tenant.config, 'View all stock')}
          </a>
        </p>
      </Container>
      <HelpLinks tenant={tenant} />
    </>
  );
}
