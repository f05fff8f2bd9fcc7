import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { absoluteSiteUrl } from '@/modules/tenancy/tenancy.paths';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { buttonClasses } from '@/components/ui/button';
import { logger } from '@/lib/logger';
import { cachePageWhileVersionHolds } from '@/lib/page-cache';
import { markServiceUnavailable } from '@/lib/service-unavailable';
import { vehicleNoun } from '@/modules/stock/stock.rules';
import { resolveSearchListing, type SearchListing } from '@/modules/stock/search/search.listing';
import { sortLabel } from '@/modules/stock/search/search.labels';
import { searchStock } from '@/modules/stock/search/search.service';
import { stockListingVersion } from '@/modules/stock/stock.queries';
import { pageCount, type SearchResponse } from '@/modules/stock/search/search.types';
import { activeFilterCount, parseSearchParams, searchHref, searchParamsFor, type SearchState } from '@/modules/stock/search/search.validation';
import { engineFilters, facetGroups, facetsForSidebar, filterChips, isIndexable, sidebarGroups, visitorState } from '@/modules/stock/search/search.view';
import { isDatabaseUnavailable } from '@/db/errors';
import { CarGrid } from '@/screens/car-grid';
import { SaveSearchButton } from '@/modules/alerts';
import { RepaymentsDisclaimer } from '@/modules/finance/components/finance-disclaimer';
import { Pagination } from '@/modules/stock/components/pagination';
import { requestTime } from '@/modules/stock/components/request-time';
import { FILTER_DRAWER_ID, FILTER_FORM_ID, SearchFilters } from '@/modules/stock/components/search-filters';
import { SearchFormEnhancer } from '@/modules/stock/components/search-form-enhancer';
import { SearchUnavailable } from '@/modules/stock/components/search-unavailable';

export type RawSearchParams = Record<string, string | string[] | undefined>;

/** The listing of a search path, or the tenant's 404. `path` overrides the canonical path (e.g. /pre-owned). */
export async function requireSearchListing(tenant: Tenant, segments: string[], path?: string): Promise<SearchListing> {
  const listing = await resolveSearchListing(tenant, segments);
  if (!listing) notFound();
  return path ? { ...listing, path } : listing;
}

function stateFor(tenant: Tenant, listing: SearchListing, raw: RawSearchParams): SearchState {
  return visitorState(parseSearchParams(raw, tenant.config.search.sortOptions), listing.presetFacets);
}

export function searchMetadata(tenant: Tenant, host: string, listing: SearchListing, raw: RawSearchParams): Metadata {
  const state = stateFor(tenant, listing, raw);
  const page = state.page > 1 ? `?page=${state.page}` : '';
  return {
    // The site layout's title template adds the dealer's name unless the page's title has it.
    title: { absolute: listing.title.includes(tenant.name) ? listing.title : `${listing.title} | ${tenant.name}` },
    description: listing.description || undefined,
    alternates: { canonical: absoluteSiteUrl(tenant, host, `${listing.path}${isIndexable(state) ? page : ''}`) },
    robots: isIndexable(state) ? undefined : { index: false, follow: true },
  };
}

/**
 * The search screen (SPEC §2): filters with counts, chips, result count, sort, cards, pagination.
 * Server-rendered from the URL, so every state has a URL and works without JavaScript.
 */
export async function SearchPage({ tenant, listing, raw }: { tenant: Tenant; listing: SearchListing; raw: RawSearchParams }) {
  const { config } = tenant;
  const state = stateFor(tenant, listing, raw);
  const pageSize = config.search.pageSize;
  const request = (page: number) => ({
    q: state.q,
    filters: engineFilters(state, listing.preset, config),
    facets: facetsForSidebar(config, listing.presetFacets),
    sort: state.sort,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });

  let response: SearchResponse;
  try {
    await cachePageWhileVersionHolds(() => stockListingVersion(tenant));
    response = await searchStock(tenant, request(state.page));
    const pages = pageCount(response.estimatedTotalHits, pageSize);
    // Past the last page: show the last page rather than an empty one.
    if (response.hits.length === 0 && pages > 0 && state.page > pages) response = await searchStock(tenant, request(pages));
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    markServiceUnavailable();
    logger.error({ err: error, website: tenant.slug }, 'stock search: database unavailable');
    return <SearchUnavailable tenant={tenant} heading={listing.heading} />;
  }

  const total = response.estimatedTotalHits;
  const pages = pageCount(total, pageSize);
  const page = Math.min(state.page, Math.max(pages, 1));
  const noun = vehicleNoun(config, total);
  const groups = facetGroups(config, response, state, listing.preset, listing.presetFacets);
  const chips = filterChips(listing.path, state, config);
  const clearHref = searchHref(listing.path, { filters: {}, sort: state.sort, page: 1 }, config.search.defaultSort);
  const activeCount = activeFilterCount(state.filters) + (state.q ? 1 : 0);
  const sort = state.sort ?? config.search.defaultSort;
  const stateKey = searchParamsFor(state, config.search.defaultSort).toString();
  const first = response.offset + 1;
  const last = response.offset + response.hits.length;

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{listing.heading}</h1>
      <div className="mt-6 grid gap-6 lg:grid-cols-[280px_minmax(0,1fr)] lg:gap-8">
        <div className="lg:row-span-2">
          <SearchFilters
            action={listing.path}
            groups={sidebarGroups(groups)}
            q={state.q}
            total={total}
            noun={noun}
            activeCount={activeCount}
            clearHref={clearHref}
            stateKey={stateKey}
            defaultSort={config.search.defaultSort}
          />
          <Suspense>
            <SearchFormEnhancer formId={FILTER_FORM_ID} drawerId={FILTER_DRAWER_ID} />
          </Suspense>
        </div>

        <section aria-labelledby="search-results-heading" className="min-w-0">
          <h2 id="search-results-heading" className="sr-only">
            Results
          </h2>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p role="status" className="font-medium text-slate-800">
              {total > 0 ? (
                <>
                  <span data-testid="result-count">{total.toLocaleString(config.locale)}</span> {noun} found
                  {pages > 1 ? (
                    <span className="text-slate-600">
                      {' '}
                      · showing {first}–{last}
                    </span>
                  ) : null}
                </>
              ) : (
                <>
                  <span data-testid="result-count">0</span> {noun} found
                </>
              )}
            </p>
            {config.search.sortOptions.length > 1 ? (
              <div className="flex items-center gap-2">
                <label htmlFor="search-sort" className="text-sm font-medium text-slate-700">
                  Sort by
                </label>
                <select
                  key={stateKey}
                  id="search-sort"
                  name="sort"
                  form={FILTER_FORM_ID}
                  defaultValue={sort}
                  className="min-h-11 rounded-site border border-slate-400 bg-white px-2 text-base text-slate-900"
                >
                  {config.search.sortOptions.map((option) => (
                    <option key={option} value={option}>
                      {sortLabel(option, config)}
                    </option>
                  ))}
                </select>
                <noscript>
                  <button type="submit" form={FILTER_FORM_ID} className={buttonClasses('outline', 'sm')}>
                    Sort
                  </button>
                </noscript>
              </div>
            ) : null}
          </div>

          {chips.length > 0 ? (
            <ul aria-label="Applied filters" className="mt-4 flex flex-wrap gap-2">
              {chips.map((chip) => (
                <li key={chip.href + chip.label}>
                  <Link
                    href={chip.href}
                    prefetch={false}
                    scroll={false}
                    className="inline-flex min-h-9 items-center gap-2 rounded-full border border-slate-300 bg-slate-50 px-3 text-sm text-slate-800 hover:border-slate-900"
                  >
                    {chip.label}
                    <span aria-hidden="true">×</span>
                    <span className="sr-only">(remove)</span>
                  </Link>
                </li>
              ))}
              <li>
                <Link
                  href={clearHref}
                  prefetch={false}
                  scroll={false}
                  className="inline-flex min-h-9 items-center px-2 text-sm font-semibold text-slate-900 underline underline-offset-4"
                >
                  Clear all
                </Link>
              </li>
            </ul>
          ) : null}

          {config.garage.enabled && config.phoneSignIn.enabled ? (
            <div className="mt-4">
              <SaveSearchButton href={searchHref(listing.path, { ...state, page: 1 }, config.search.defaultSort)} garagePath={config.garage.path} />
            </div>
          ) : null}

          {response.hits.length > 0 ? (
            <div className="mt-6">
              <CarGrid cars={response.hits} config={config} now={requestTime()} priorityCount={2} headingLevel={3} label={listing.heading} />
              <Pagination page={page} pages={pages} hrefFor={(p) => searchHref(listing.path, { ...state, page: p }, config.search.defaultSort)} />
              <RepaymentsDisclaimer config={config} className="mt-8" />
            </div>
          ) : (
            <div className="mt-8 rounded-site border border-dashed border-slate-300 p-8 text-center">
              <p className="text-lg font-semibold text-slate-900">
                {activeCount > 0 ? `No ${vehicleNoun(config)} match your search.` : `No ${vehicleNoun(config)} here right now.`}
              </p>
              <p className="mt-2 text-slate-700">
                {activeCount > 0 ? 'Try removing a filter, or clear them all.' : 'New stock arrives every week. Have a look at everything we have.'}
              </p>
              <div className="mt-4 flex flex-wrap justify-center gap-3">
                {activeCount > 0 ? (
                  <Link href={clearHref} prefetch={false} className={buttonClasses('primary', 'md')}>
                    Clear all filters
                  </Link>
                ) : (
                  <Link href="/" prefetch={false} className={buttonClasses('primary', 'md')}>
                    Back to the home page
                  </Link>
                )}
              </div>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
