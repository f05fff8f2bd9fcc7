import type { DemoSite } from '../tenancy.types';
import { placeName } from './place-name';

const LOCALE_NAMES: Record<string, string> = {
  'en-AU': 'Australia (en-AU)',
  'en-NZ': 'New Zealand (en-NZ)',
  'en-US': 'United States (en-US)',
};

/** Links to `http://{slug}.localhost:{port}/`; `port` is the request's, null for the default. */
export function demoSiteUrl(site: Pick<DemoSite, 'host'>, port: string | null): string {
  return `http://${site.host}${port ? `:${port}` : ''}/`;
}

/**
 * Plain localhost in demo mode: every demo website with where it is and a link to its
 * development host. Deliberately unbranded: it belongs to no dealer.
 */
export function DemoDirectory({ sites, port }: { sites: DemoSite[]; port: string | null }) {
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-12 sm:px-6 md:py-16">
      <p className="text-sm font-semibold tracking-widest text-gray-600 uppercase">Demo mode</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-gray-900 md:text-4xl">Dealer websites</h1>
      <p className="mt-3 max-w-2xl text-lg text-gray-700">
        One deployment, {sites.length} dealer {sites.length === 1 ? 'website' : 'websites'}. Each answers on its own
        host name; choose one to open it.
      </p>
      {sites.length === 0 ? (
        <p className="mt-10 rounded-lg border border-dashed border-gray-300 p-6 text-gray-700">
          No websites yet. Load the demo data with <code className="font-mono">npm run db:seed</code>.
        </p>
      ) : (
        <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {sites.map((site) => {
            const place = placeName({ ...site, overrideCity: null });
            return (
              <li key={site.slug}>
                <a
                  href={demoSiteUrl(site, port)}
                  className="flex h-full flex-col rounded-lg border border-gray-200 bg-white p-5 shadow-sm transition hover:-translate-y-0.5 hover:border-gray-900 hover:shadow-md"
                >
                  <span className="text-lg font-bold text-gray-900">{site.name}</span>
                  {place ? <span className="mt-1 text-gray-700">{place}</span> : null}
                  <span className="mt-1 text-sm text-gray-600">{LOCALE_NAMES[site.locale] ?? site.locale}</span>
                  <span className="mt-4 font-mono text-sm break-all text-blue-700">{site.host}</span>
                </a>
              </li>
            );
          })}
        </ul>
      )}
    </main>
  );
}
