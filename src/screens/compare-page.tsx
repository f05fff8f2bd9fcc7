import { clsx as cn } from 'clsx';
import Link from 'next/link';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import { cachePageWhileVersionHolds } from '@/lib/page-cache';
import { RepaymentsDisclaimer } from '@/modules/finance/components/finance-disclaimer';
import { getCarBySlug, stockListingVersion } from '@/modules/stock/stock.queries';
import { isValidCarSlug, vehicleNoun } from '@/modules/stock/stock.rules';
import type { CarDetail } from '@/modules/stock/stock.types';
import { carPath, searchPath } from '@/modules/tenancy/tenancy.paths';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { compareSlugs, compareView, type CompareRow } from '@/screens/compare-view';
import { PriceBlock } from '@/screens/price-block';

function Rows({ rows, caption }: { rows: CompareRow[]; caption: string }) {
  return (
    <tbody>
      <tr>
        <th colSpan={rows[0]?.values.length + 1} scope="rowgroup" className="bg-slate-100 px-3 py-2 text-left text-sm font-bold uppercase tracking-wide text-slate-700">
          {caption}
        </th>
      </tr>
      {rows.map((row) => (
        <tr key={row.label} className={cn('border-b border-slate-200', row.differs ? 'bg-amber-50' : 'bg-white')} data-differs={row.differs || undefined}>
          <th scope="row" className="sticky left-0 w-28 bg-inherit px-3 py-2 text-left text-sm font-medium text-slate-600 sm:w-48 sm:text-base">
            {row.label}
            {row.differs ? <span className="sr-only"> (differs)</span> : null}
          </th>
          {row.values.map((value, k) => (
            <td key={k} className={cn('px-3 py-2 text-slate-900', row.differs && 'font-semibold')}>
              {value}
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  );
}

/**
 * /compare?car={slug}&car=… (issue 35): up to three of this website's cars side by side, from a
 * shareable URL; rows whose values differ are highlighted. Server-rendered, no script of its own;
 * served again from the page cache until the website's stock changes.
 */
export async function ComparePage({ tenant, raw }: { tenant: Tenant; raw: string | string[] | undefined }) {
  const { config } = tenant;
  await cachePageWhileVersionHolds(() => stockListingVersion(tenant));
  const found = await Promise.all(compareSlugs(raw, isValidCarSlug).map((slug) => getCarBySlug(tenant, slug)));
  const cars = found.filter((car): car is CarDetail => car != null);
  const view = cars.length > 0 ? compareView(cars, config) : null;
  const noun = vehicleNoun(config);
  const title = `Compare ${noun}`;
  return (
    <>
      <PageHeader title={title} lead={`Up to three ${noun} side by side. Differences are highlighted.`} breadcrumbs={[{ label: 'Home', href: '/' }, { label: title }]} />
      <Container className="py-8">
        {!view ? (
          <p className="max-w-xl text-slate-800">
            No {noun} to compare. Save {noun} to your garage and compare them from there, or{' '}
            <Link href={searchPath(tenant)} prefetch={false} className="font-semibold text-brand-text underline underline-offset-2">
              browse our stock
            </Link>
            .
          </p>
        ) : (
          <>
            <div className="overflow-x-auto">
              <table className="w-full min-w-[36rem] border-collapse text-left">
                <caption className="sr-only">Compared {noun}: {cars.map((car) => car.name).join(', ')}</caption>
                <thead>
                  <tr className="align-top">
                    <td className="sticky left-0 bg-white" />
                    {cars.map((car, k) => (
                      <th key={car.id} scope="col" className="px-3 pb-4 font-normal">
                        <Link href={carPath(tenant, car.slug)} prefetch={false} className="text-lg font-bold text-slate-900 hover:underline">
                          {car.name}
                        </Link>
                        <PriceBlock view={view.prices[k]} className="mt-2" />
                      </th>
                    ))}
                  </tr>
                </thead>
                <Rows rows={view.rows} caption="Specifications" />
                {view.features.length > 0 ? <Rows rows={view.features} caption="Features" /> : null}
              </table>
            </div>
            <RepaymentsDisclaimer config={config} className="mt-8 max-w-4xl" />
          </>
        )}
      </Container>
    </>
  );
}
