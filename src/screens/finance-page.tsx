import Image from 'next/image';
import Link from 'next/link';
import type { FinanceQuery } from '@/modules/finance/finance.route';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import { spell } from '@/lib/format';
import { getLeadCar, getLeadCarById, getLeadSite } from '@/modules/leads/server';
import type { LeadCar } from '@/modules/leads';
import { getCarBySlug, stockListingVersion, getFeaturedCars } from '@/modules/stock/stock.queries';
import { isForSale } from '@/modules/stock/car-page.rules';
import { cachePageWhileVersionHolds } from '@/lib/page-cache';
import { CarGrid } from '@/screens/car-grid';
import { PriceBlock } from '@/screens/price-block';
import { priceView } from '@/screens/price-view';
import { isOptimizable } from '@/modules/stock/components/car-image';
import { requestTime } from '@/modules/stock/components/request-time';
import { carPath, carTypeSearchPath } from '@/modules/tenancy/tenancy.paths';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import type { CarDetail } from '@/modules/stock/stock.types';
import { clampLoanTermYears, clampPurchasePrice, CREDIT_HISTORIES, parseCreditHistory, purchasePriceFloor } from '@/modules/finance/finance.calc';
import { financeDisclaimer, showsRepayments } from '@/modules/finance/finance.display';
import { offersInstantFinance } from '@/modules/tenancy/tenancy.config';
import { FinanceEnquiryForm } from '@/modules/finance/components/finance-enquiry-form';
import { REFUSED_FORM_COOKIE } from '@/modules/finance/finance.enquiry';
import { parseRefusedForm, type RefusedForm } from '@/modules/leads/leads.refused-form';
import { cookies } from 'next/headers';
import { FinanceDisclaimerDialog, InstantFinanceDialog, type InstantFinanceCar } from '@/modules/finance/components/finance-dialogs';

/**
 * The finance pages (SPEC §2: /finance, /finance-enquiry, /apply-for-finance and the pre-approval
 * path): the form prefilled from the query, the chosen car or the 3-step explainer beside it, the
 * 'Get Finance Now' landing when there is no car, and the instant pre-approval popup.
 */

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

/**
 * The car of ?car_id= (a slug, or a numeric id; SPEC §2: text after a '?' dropped), when it can be
 * bought: a sold or reserved car gets the finance page without it, as it gets no finance action.
 */
async function chosenCar(tenant: Tenant, raw: string): Promise<{ car: CarDetail; lead: LeadCar } | null> {
  const value = raw.split('?')[0]!.trim().slice(0, 200);
  if (!value) return null;
  const lead = /^\d+$/.test(value) ? await getLeadCar(tenant, value) : null;
  const car = await getCarBySlug(tenant, lead ? lead.slug : value);
  if (!car || !isForSale(car, tenant.config)) return null;
  const leadCar = lead ?? (await getLeadCarById(tenant, car.id));
  return leadCar ? { car, lead: leadCar } : null;
}

/**
 * The refused post's values and messages (its cookie, see finance.enquiry.ts), read only when the
 * address says the form came back (?invalid=…): a request with a cookie is never a cached page.
 * Without the cookie (cookies off) each named field still says to check it.
 */
async function refusedFormOf(invalid: string): Promise<RefusedForm> {
  const names = invalid.split(',').filter(Boolean).slice(0, 20);
  if (names.length === 0) return { form: '', values: {}, errors: {} };
  const kept = parseRefusedForm((await cookies()).get(REFUSED_FORM_COOKIE)?.value);
  if (kept && Object.keys(kept.errors).length > 0) return kept;
  return { form: '', values: {}, errors: Object.fromEntries(names.map((name) => [name === 'first_name' ? 'name' : name, 'Please check this field.'])) };
}

export async function FinancePage({ tenant, query }: { tenant: Tenant; query: FinanceQuery }) {
  const { config } = tenant;
  // The same for every visitor at one URL (the query prefills the form): cached until the website's data or cars change.
  await cachePageWhileVersionHolds(() => stockListingVersion(tenant));
  const [site, chosen] = await Promise.all([getLeadSite(tenant), chosenCar(tenant, first(query.car_id))]);
  const car = chosen?.car ?? null;
  const budget = first(query.vehiclePriceBudget) || first(query.price) || (car && car.price > 0 ? String(car.price) : '');
  const credit = first(query.selfAssessedCreditScore) || first(query.credit_score);
  const initialValues = {
    amount: String(clampPurchasePrice(budget, purchasePriceFloor(car?.price))),
    term: String(clampLoanTermYears(first(query.loanTerm) || undefined)),
    selfAssessedCreditScore: CREDIT_HISTORIES.includes(credit.toUpperCase() as never) ? credit.toUpperCase() : parseCreditHistory(undefined),
  };
  const hidden = {
    car_id: car?.id ?? null,
    car_dealership_id: car?.dealershipId ?? null,
    location_id: chosen?.lead.locationId ?? null,
    dealership_slug: car?.dealershipSlug ?? (first(query.preferredDealership).slice(0, 100) || null),
    whoIsHelping: first(query.whoIsHelping).slice(0, 100) || null,
  };
  const popupCar: InstantFinanceCar | null = car
    ? { id: car.id, name: car.name, price: car.price, vin: car.vin, nvic: car.nvic, year: car.year, carType: car.carType, dealershipSlug: car.dealershipSlug }
    : null;
  const landing = !car && config.finance.getFinanceCta ? await getFeaturedCars(tenant, undefined, undefined, { forSale: true }) : [];
  // Estimates and quotes come with their disclaimer; where neither is offered there is none.
  const disclaimer = showsRepayments(config) || offersInstantFinance(config) ? financeDisclaimer(config) : null;
  // Back from a form post the server refused: what was typed and each field's message.
  const refused = await refusedFormOf(first(query.invalid));

  return (
    <>
      <PageHeader
        title={spell(config, 'Car Finance')}
        lead={car ? `Finance for the ${car.name}` : offersInstantFinance(config) ? 'Apply online in about five minutes. A pre-approval does not affect your credit score.' : 'Tell us what you would like to finance and our team will come back to you with options.'}
        breadcrumbs={[{ label: 'Home', href: '/' }, { label: 'Finance' }]}
      />
      {landing.length > 0 ? (
        <section aria-labelledby="get-finance-now" className="border-b border-slate-200 bg-white">
          <Container className="py-10">
            <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
              <h2 id="get-finance-now" className="text-2xl font-bold text-slate-900">
                Get Finance Now
              </h2>
              <div className="flex flex-wrap gap-3">
                <a href="#finance-form" className="inline-flex min-h-11 items-center rounded-site bg-brand px-5 font-semibold text-brand-foreground hover:brightness-110">
                  Start Finance Journey
                </a>
                <Link href={carTypeSearchPath('used')} prefetch={false} className="inline-flex min-h-11 items-center rounded-site border-2 border-slate-900 px-5 font-semibold text-slate-900 hover:bg-slate-900 hover:text-white">
                  View All Used Cars
                </Link>
              </div>
            </div>
            <CarGrid cars={landing} config={config} now={requestTime()} />
          </Container>
        </section>
      ) : null}
      <Container className="py-10 md:py-14">
        <div className={config.finance.showSideCard ? 'grid gap-10 lg:grid-cols-[minmax(0,1fr)_22rem]' : 'mx-auto max-w-3xl'}>
          <div className="min-w-0">
            {offersInstantFinance(config) ? (
              <div className="mb-8 rounded-site border border-emerald-200 bg-emerald-50 p-5 sm:p-6">
                <h2 className="text-xl font-bold text-slate-900">Instant finance pre-approval</h2>
                <p className="mt-2 text-slate-700">Get a personalised weekly repayment in seconds, with no impact on your credit score.</p>
                <InstantFinanceDialog
                  car={popupCar}
                  site={site}
                  initialPrice={clampPurchasePrice(budget, purchasePriceFloor(car?.price))}
                  whoIsHelping={hidden.whoIsHelping}
                  link={{
                    href: '#finance-form',
                    label: 'Get Instant Pre-approval',
                    className: 'mt-4 inline-flex min-h-11 items-center rounded-site bg-brand px-5 font-semibold text-brand-foreground hover:brightness-110',
                  }}
                />
              </div>
            ) : null}
            <section id="finance-form" aria-label="Finance enquiry" className="scroll-mt-24 rounded-site border border-gray-200 bg-white p-5 shadow-sm sm:p-8">
              <FinanceEnquiryForm site={site} hidden={hidden} initialValues={{ ...initialValues, ...refused.values }} errors={refused.errors} />
            </section>
            {disclaimer ? (
              <>
                <p className="mt-4 text-sm text-slate-600">
                  Estimates are indicative only.{' '}
                  <FinanceDisclaimerDialog text={disclaimer} link={{ href: '#finance-disclaimer-text', label: 'View disclaimer', className: 'font-semibold text-slate-900 underline' }} />
                </p>
                <p id="finance-disclaimer-text" className="mt-4 text-xs leading-relaxed text-slate-600">
                  {disclaimer}
                </p>
              </>
            ) : null}
          </div>
          {config.finance.showSideCard ? <aside aria-label={car ? 'Your car' : 'How it works'}>{car ? <CarSideCard tenant={tenant} car={car} /> : <Explainer />}</aside> : null}
        </div>
      </Container>
    </>
  );
}

function CarSideCard({ tenant, car }: { tenant: Tenant; car: CarDetail }) {
  const image = car.images[0];
  return (
    <div className="overflow-hidden rounded-site border border-slate-200 bg-white shadow-sm">
      <div className="relative aspect-[3/2] bg-slate-100">
        {image ? <Image src={image.url} alt="" fill sizes="(min-width: 992px) 352px, 92vw" unoptimized={!isOptimizable(image.url)} className="object-cover" /> : null}
      </div>
      <div className="p-5">
        <h2 className="text-lg font-semibold text-slate-900">
          <Link href={carPath(tenant, car.slug)} prefetch={false} className="hover:underline">
            {car.name}
          </Link>
        </h2>
        <PriceBlock view={priceView(car, tenant.config)} className="mt-2" />
      </div>
    </div>
  );
}

const STEPS = [
  { title: 'Apply online in 5 minutes', text: 'Tell us about the car and yourself. No paperwork to start.' },
  { title: 'Get pre-approved with a personalised rate', text: 'An instant answer, with no impact on your credit score.' },
  { title: 'Purchase your car', text: 'We settle the finance and you drive away.' },
];

function Explainer() {
  return (
    <div className="rounded-site border border-slate-200 bg-white p-6 shadow-sm">
      <h2 className="text-lg font-bold text-slate-900">How it works</h2>
      <ol className="mt-4 space-y-4">
        {STEPS.map((step, i) => (
          <li key={step.title} className="flex gap-3">
            <span aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand font-bold text-brand-foreground">
              {i + 1}
            </span>
            <div>
              <p className="font-semibold text-slate-900">{step.title}</p>
              <p className="text-sm text-slate-700">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
