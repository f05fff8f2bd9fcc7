import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { searchPath } from '@/modules/tenancy/tenancy.paths';
import { hostFromParams, requireTenant } from '@/modules/tenancy/tenancy.request';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { spell } from '@/lib/format';
import { listVisibleCars } from '../stock.queries';
import { carTypeFromSearchSlug, conditionLabel, vehicleNoun } from '../stock.rules';
import type { CarType } from '../stock.types';
import { CarGrid } from './car-grid';
import { requestTime } from './request-time';
import { absoluteSiteUrl } from '@/modules/tenancy/tenancy.paths';
import { headingFromSlug, MAX_Q_LENGTH, pageHref, pageWindow, parseStockListSearchParams } from './stock-list.params';

export type StockListParams = Promise<{ host: string; segments: string[] }>;
export type StockListSearchParams = Promise<Record<string, string | string[] | undefined>>;

type Listing = { tenant: Tenant; slug: string; carType: CarType | undefined; path: string };

/**
 * The first segment is the search slug: the website's default slug (all stock) or a car-type
 * segment (used-cars, new-cars, demo-cars). Anything else, or more segments, is not found.
 */
async function resolveListing(params: StockListParams): Promise<Listing> {
  const tenant = await requireTenant(params);
  const { segments } = await params;
  const slug = segments[0] ?? '';
  if (segments.length !== 1) notFound();
  const carType = carTypeFromSearchSlug(slug) ?? undefined;
  if (!carType && slug !== tenant.config.search.defaultSlug) notFound();
  return { tenant, slug, carType, path: searchPath(tenant, slug) };
}

function heading(tenant: Tenant, carType: CarType | undefined): string {
  const noun = vehicleNoun(tenant.config);
  if (!carType) return headingFromSlug(tenant.config.search.defaultSlug);
  const label = conditionLabel(carType, tenant.config);
  return `${label.charAt(0).toUpperCase()}${label.slice(1)} ${noun}`;
}

export async function stockListMetadata(params: StockListParams, searchParams: StockListSearchParams): Promise<Metadata> {
  const { tenant, carType, path } = await resolveListing(params);
  const { q, page } = parseStockListSearchParams(await searchParams);
  const host = await hostFromParams(params);
  // The site layout's title template adds the dealer's name.
  const title = spell(tenant.config, heading(tenant, carType));
  return {
    title: page > 1 ? `${title} (page ${page})` : title,
    description: `${heading(tenant, carType)} for sale at ${tenant.name}${tenant.city ? `, ${tenant.city}` : ''}.`,
    alternates: { canonical: absoluteSiteUrl(tenant, host, pageHref(path, undefined, page)) },
    robots: q ? { index: false, follow: true } : undefined,
  };
}

const linkClass =
  'inline-flex min-h-11 min-w-11 items-center justify-center rounded-site border border-slate-300 px-3 font-medium text-slate-900 hover:border-slate-900';

function Pagination({ path, q, page, pages }: { path: string; q?: string; page: number; pages: number }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-10">
      <ul className="flex flex-wrap items-center justify-center gap-2">
        {page > 1 ? (
          <li>
            <Link href={pageHref(path, q, page - 1)} prefetch={false} rel="prev" className={linkClass}>
              <span aria-hidden="true">←&nbsp;</span>Previous
            </Link>
          </li>
        ) : null}
        {pageWindow(page, pages).map((p, i) =>
          p === 'gap' ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-slate-500">
              …
            </li>
          ) : (
            <li key={p}>
              {p === page ? (
                <span aria-current="page" className={`${linkClass} border-slate-900 bg-slate-900 text-white`}>
                  <span className="sr-only">Page </span>
                  {p}
                </span>
              ) : (
                <Link href={pageHref(path, q, p)} prefetch={false} className={linkClass}>
                  <span className="sr-only">Page </span>
                  {p}
                </Link>
              )}
            </li>
          ),
        )}
        {page < pages ? (
          <li>
            <Link href={pageHref(path, q, page + 1)} prefetch={false} rel="next" className={linkClass}>
              Next<span aria-hidden="true">&nbsp;→</span>
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

/** The basic stock list: search box, result count, cards, pagination. Works without JavaScript. */
export async function StockListPage({ params, searchParams }: { params: StockListParams; searchParams: StockListSearchParams }) {
  const { tenant, carType, path } = await resolveListing(params);
  const { config } = tenant;
  const { q, page: requested } = parseStockListSearchParams(await searchParams);
  let list = await listVisibleCars(tenant, { q, carType, page: requested, pageSize: config.search.pageSize });
  // Past the last page: show the last page rather than an empty one.
  if (list.cars.length === 0 && list.pages > 0 && requested > list.pages) {
    list = await listVisibleCars(tenant, { q, carType, page: list.pages, pageSize: config.search.pageSize });
  }
  const noun = vehicleNoun(config, list.total);
  const title = spell(config, heading(tenant, carType));
  const allStock = searchPath(tenant);
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold text-slate-900">{title}</h1>

      <form role="search" action={path} method="get" className="mt-6 flex max-w-2xl flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-1">
          <label htmlFor="stock-q" className="text-sm font-medium text-slate-700">
            Search by make, model or stock number
          </label>
          <input
            id="stock-q"
            name="q"
            type="search"
            defaultValue={q ?? ''}
            maxLength={MAX_Q_LENGTH}
            className="min-h-11 rounded-site border border-slate-400 px-3 text-base text-slate-900"
          />
        </div>
        <button type="submit" className="min-h-11 rounded-site bg-brand px-6 font-semibold text-brand-foreground hover:brightness-110">
          Search
        </button>
      </form>

      <p className="mt-6 text-slate-700" role="status">
        {list.total} {noun} found{q ? ` for “${q}”` : ''}
        {list.pages > 1 ? ` · page ${list.page} of ${list.pages}` : ''}
      </p>

      {list.cars.length > 0 ? (
        <div className="mt-6">
          <CarGrid cars={list.cars} config={config} now={requestTime()} priorityCount={3} headingLevel={2} label={title} />
          <Pagination path={path} q={q} page={list.page} pages={list.pages} />
        </div>
      ) : (
        <div className="mt-8 rounded-site border border-dashed border-slate-300 p-8 text-center">
          <p className="text-lg font-semibold text-slate-900">
            {q ? `No ${vehicleNoun(config)} match your search.` : `No ${vehicleNoun(config)} here right now.`}
          </p>
          <p className="mt-3">
            {q ? (
              <Link href={path} prefetch={false} className="font-semibold text-slate-900 underline underline-offset-4">
                Clear the search
              </Link>
            ) : path !== allStock ? (
              <Link href={allStock} prefetch={false} className="font-semibold text-slate-900 underline underline-offset-4">
                See all {vehicleNoun(config)}
              </Link>
            ) : (
              <Link href="/" prefetch={false} className="font-semibold text-slate-900 underline underline-offset-4">
                Back to the home page
              </Link>
            )}
          </p>
        </div>
      )}
    </div>
  );
}
