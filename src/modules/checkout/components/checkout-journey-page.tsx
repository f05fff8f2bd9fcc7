import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { spell } from '@/lib/format';
import { monthlyFromWeekly, financeDisclaimer, formatRepayment, repaymentEstimate } from '@/modules/finance/server';
import { getLeadSite, listLeadLocations } from '@/modules/leads/server';
import { valuationVehicleFields } from '@/modules/leads';
import { getCarBySlug, isValidCarSlug } from '@/modules/stock/server';
import type { CarDetail } from '@/modules/stock/server';
import { requireTenant } from '@/modules/tenancy/tenancy.request';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { CheckoutJourney, type JourneyFinance } from './checkout-journey';
import { CHECKOUT_TITLES, CheckoutBody } from './checkout-page';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The repayment estimate for the car's price as the journey shows it (SPEC §9: monthly = 4.33 × weekly), where the website shows one. */
function financeFor(tenant: Tenant, car: CarDetail): JourneyFinance {
  const estimate = repaymentEstimate(tenant.config, car.price);
  if (!estimate) return null;
  return {
    weekly: formatRepayment(estimate.weeklyRepaymentAmount),
    monthly: formatRepayment(monthlyFromWeekly(estimate.weeklyRepaymentAmount)),
    rate: estimate.advertisedRate.toFixed(2),
    comparisonRate: estimate.comparisonRate.toFixed(2),
    disclaimer: financeDisclaimer(tenant.config),
  };
}

/**
 * /checkout-journey?car_id={slug} (SPEC §2 online purchase): the buyer's choices, a step each (cash
 * or finance with the repayment estimate for this car, a trade-in valued with the valuation form's
 * fields, pick-up location or delivery postcode), then the same deposit step; on a website that does
 * not sell online, the friendly page. A module of its own: the reserve pages do not load its steps.
 */
export async function CheckoutJourneyPage({ searchParams }: Props) {
  const tenant = await requireTenant();
  const slug = (await searchParams).car_id;
  if (!isValidCarSlug(slug)) notFound();
  const car = await getCarBySlug(tenant, slug);
  if (!car) return <CheckoutBody tenant={tenant} slug={slug} car={null} kind="buy_online" />;
  const [site, locations] = await Promise.all([getLeadSite(tenant), listLeadLocations(tenant, ['sales'])]);
  return (
    <CheckoutBody
      tenant={tenant}
      slug={slug}
      car={car}
      kind="buy_online"
      renderFlow={(flow) => (
        <CheckoutJourney
          flow={flow}
          site={site}
          locations={locations.map((l) => ({ id: l.id, name: l.name }))}
          finance={financeFor(tenant, car)}
          vehicleFields={valuationVehicleFields(site)}
        />
      )}
    />
  );
}

export async function checkoutJourneyMetadata({ searchParams }: Props): Promise<Metadata> {
  const tenant = await requireTenant();
  const slug = (await searchParams).car_id;
  const car = isValidCarSlug(slug) ? await getCarBySlug(tenant, slug) : null;
  const title = spell(tenant.config, CHECKOUT_TITLES.buy_online);
  return { title: car ? `${title}: ${car.name}` : title, robots: { index: false, follow: false } };
}
