import Link from 'next/link';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { carTypeSearchPath } from '@/modules/tenancy/tenancy.paths';
import { spell } from '@/lib/format';
import { getFeaturedCars } from '@/modules/stock/stock.queries';
import { conditionLabel, vehicleNoun } from '@/modules/stock/stock.rules';
import { CarGrid } from '@/screens/car-grid';
import { RepaymentsDisclaimer } from '@/modules/finance/components/finance-disclaimer';
import { requestTime } from '@/modules/stock/components/request-time';

/**
 * Up to six featured in-stock used cars (SPEC §9) with a link to all used stock. Renders nothing
 * when the website has none.
 */
export async function FeaturedCars({ tenant }: { tenant: Tenant }) {
  const cars = await getFeaturedCars(tenant);
  if (cars.length === 0) return null;
  const { config } = tenant;
  const used = conditionLabel('used', config);
  const noun = vehicleNoun(config);
  const headingId = 'featured-cars-heading';
  return (
    <section aria-labelledby={headingId} className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <h2 id={headingId} className="text-2xl font-bold text-slate-900 sm:text-3xl">
          {spell(config, `Featured ${used} ${noun}`)}
        </h2>
        <Link
          href={carTypeSearchPath('used')}
          prefetch={false}
          className="font-semibold text-slate-900 underline decoration-2 underline-offset-4 hover:decoration-brand"
        >
          View all<span className="sr-only"> {`${used} ${noun}`}</span>
        </Link>
      </div>
      <CarGrid cars={cars} config={config} now={requestTime()} />
      <RepaymentsDisclaimer config={config} className="mt-6" />
    </section>
  );
}
