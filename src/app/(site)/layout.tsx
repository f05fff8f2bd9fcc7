import '../globals.css';
import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { listDealerLicences } from '@/modules/locations/locations.queries';
import { getNavigation } from '@/modules/tenancy/tenancy.queries';
import { DATABASE_UNAVAILABLE, requestHost, requestTenant } from '@/modules/tenancy/tenancy.request';
import { ServiceUnavailablePage } from '@/modules/tenancy/components/service-unavailable-page';
import { buildNavEntries } from '@/modules/tenancy/components/navigation-model';
import { SiteFooter } from '@/modules/tenancy/components/site-footer';
import { SiteHeader } from '@/modules/tenancy/components/site-header';
import { SkipLink } from '@/modules/tenancy/components/skip-link';
import { VisitRecorder } from '@/modules/leads/components/visit-recorder';
import { WidgetHost } from '@/modules/widgets/components/widget-host';
import { getWidgetPlan } from '@/modules/widgets/widgets.queries';
import { themeStyle } from '@/modules/tenancy/components/site-theme';
import { siteOrigin } from '@/modules/tenancy/tenancy.paths';
import { cachePageUntil } from '@/lib/page-cache';
import { instantOfWallTime, isValidTimeZone, wallTimeAt } from '@/lib/time-zone';
import { APPLY_ON_CHANGE_SOURCE } from '@/lib/apply-on-change';
import { cookies } from 'next/headers';
import { RefusedFormProvider } from '@/modules/leads/components/refused-form-context';
import { parseRefusedForm, REFUSED_LEAD_FORM_COOKIE } from '@/modules/leads/leads.refused-form';

// Every site page depends on the request's Host header: never prerendered at build time (which
// must not need the database), whatever a page under this layout reads first.
export const dynamic = 'force-dynamic';

/** The year in the website's zone; a cached page does not outlive it (the footer's copyright line). */
function currentYear(timeZone: string): number {
  const now = Date.now();
  const zone = isValidTimeZone(timeZone) ? timeZone : 'UTC';
  const year = wallTimeAt(now, zone).year;
  cachePageUntil(instantOfWallTime({ year: year + 1, month: 1, day: 1, hour: 0, minute: 0 }, zone) ?? now + 3_600_000);
  return year;
}

export async function generateMetadata(): Promise<Metadata> {
  const [host, tenant] = await Promise.all([requestHost(), requestTenant()]);
  // No favicon file is served: an empty data URL stops the browser asking for /favicon.ico.
  const icons = { icon: 'data:,' };
  if (tenant === DATABASE_UNAVAILABLE) return { title: 'Back shortly', robots: { index: false }, icons };
  if (!tenant || !host) return { title: 'Page not found', robots: { index: false }, icons };
  return {
    title: { template: `%s | ${tenant.name}`, default: tenant.name },
    description: tenant.config.hero.subheading || tenant.config.hero.heading,
    metadataBase: siteOrigin(tenant, host),
    applicationName: tenant.name,
    icons,
    formatDetection: { telephone: false },
  };
}

export async function generateViewport(): Promise<Viewport> {
  const tenant = await requestTenant();
  return { themeColor: tenant && tenant !== DATABASE_UNAVAILABLE ? tenant.config.theme.headerBackground : '#ffffff' };
}

/** The browser paints a page once it has parsed the element of this id, the last the visitor sees (decision 075). */
const PAGE_END_ID = 'page-end';

/**
 * Root layout of every dealer website (the routes of app/(site) answer at the root of every host,
 * and the website is the one the request's Host names: requestTenant): the tenant's theme as CSS
 * variables, skip link, header, main landmark and footer. A host no website answers to gets a bare
 * document, so its 404 names no dealer.
 */
export default async function SiteLayout({ children }: { children: ReactNode }) {
  const tenant = await requestTenant();
  if (tenant === DATABASE_UNAVAILABLE) return <ServiceUnavailablePage />;
  if (!tenant) {
    return (
      <html lang="en">
        <body className="min-h-screen bg-white text-gray-900">{children}</body>
      </html>
    );
  }

  const [navigation, licences, widgets] = await Promise.all([getNavigation(tenant), listDealerLicences(tenant), getWidgetPlan(tenant)]);
  const year = currentYear(tenant.config.timeZone);

  return (
    <html lang={tenant.config.locale}>
      <body style={themeStyle(tenant.config.theme)} className="flex min-h-screen flex-col">
        {/* React hoists it into <head>: no first paint before the page end below is parsed, so no half-parsed
            header rearranges and no footer at the bottom of a short page rises as it grows (decision 075). */}
        <link rel="expect" href={`#${PAGE_END_ID}`} blocking="render" />
        {/* Before anything a visitor can touch: forms that apply on change work from the first tap (decision 060). */}
        <script dangerouslySetInnerHTML={{ __html: APPLY_ON_CHANGE_SOURCE }} />
        <SkipLink />
        <VisitRecorder />
        <SiteHeader tenant={tenant} entries={buildNavEntries(tenant, navigation.header)} />
        <main id="main" tabIndex={-1} className="flex-1">
          <RefusedFormProvider refused={parseRefusedForm((await cookies()).get(REFUSED_LEAD_FORM_COOKIE)?.value)}>{children}</RefusedFormProvider>
        </main>
        <SiteFooter tenant={tenant} entries={buildNavEntries(tenant, navigation.footer)} year={year} licences={licences} />
        <div id={PAGE_END_ID} hidden />
        <WidgetHost plan={widgets} />
      </body>
    </html>
  );
}
