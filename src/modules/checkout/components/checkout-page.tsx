/* eslint-disable @next/next/no-img-element -- one photo at a card's size (car-image.ts), a plain element keeps next/image's client code out. */
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import Link from 'next/link';
import { notFound, permanentRedirect } from 'next/navigation';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import { formatMoney, spell } from '@/lib/format';
import { NotFoundError } from '@/lib/http';
import { ContactAside } from '@/modules/content/server';
import { MIN_RESERVE_PRICE, cardPhotoSources, getCarBySlug, getSoldCarBySlug, isValidCarSlug } from '@/modules/stock/server';
import type { CarDetail } from '@/modules/stock/server';
import { carPath } from '@/modules/tenancy/tenancy.paths';
import { requireTenant } from '@/modules/tenancy/tenancy.request';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { phoneRuleFor } from '@/modules/tenancy/tenancy.country';
import { checkoutQuote, similarCarsTo, type CheckoutQuote, type SimilarCar } from '../checkout.commands';
import { allowPaymentStepCsp } from '../checkout.csp';
import { CheckoutFlow, type CheckoutFlowProps } from './checkout-flow';

/** The deposit step's props; the online purchase puts its choice steps before it (checkout-journey-page.tsx). */
export type DepositFlow = Omit<CheckoutFlowProps, 'choices'>;
type RenderFlow = (flow: DepositFlow) => ReactNode;

/**
 * /{vehicle path}/{slug}/checkout and /buy-online (SPEC §2, issue 16): the car, the deposit, the
 * hold and the refund terms, rendered on the server; the details → payment → confirmation steps
 * are one small client island (CheckoutFlow). A car that cannot be reserved gets a friendly page
 * saying why, with a way back and similar cars — never a payment form. Not cached: eligibility
 * changes with every reservation.
 */

export type CheckoutKind = 'reserve' | 'buy_online';
export type CheckoutPageParams = Promise<{ slug: string }>;

type Reason = 'sold' | 'reserved' | 'price' | 'coming_soon' | 'not_reservable' | 'processor' | 'off';

const REASONS: Record<Reason, string> = {
  sold: 'This car has been sold.',
  reserved: 'Someone has already reserved this car.',
  price: 'This car cannot be reserved online. Please contact us about it.',
  coming_soon: 'This car is coming soon and cannot be reserved online yet.',
  not_reservable: 'This car cannot be reserved online. Please contact us about it.',
  processor: 'Online reservation is not available for this car. Please contact us about it.',
  off: 'Online reservations are not available on this website. Please contact us about this car.',
};

export const CHECKOUT_TITLES: Record<CheckoutKind, string> = { reserve: 'Reserve this car', buy_online: 'Buy this car online' };

/** Why the car cannot go through checkout, or null when it can (the quote is the backend's own rule). */
function reasonOf(tenant: Tenant, car: CarDetail, kind: CheckoutKind, quote: CheckoutQuote): Reason | null {
  const { checkout } = tenant.config;
  if (quote.eligible) return null;
  if (!checkout.enabled || (kind === 'buy_online' && !tenant.config.enableStore)) return 'off';
  if (car.status === 'sold') return 'sold';
  if (car.reserved) return 'reserved';
  if (car.price <= MIN_RESERVE_PRICE) return 'price';
  if (car.status === 'coming_soon' && !checkout.allowComingSoon) return 'coming_soon';
  if (car.reservable === false) return 'not_reservable';
  return 'processor';
}

async function resolve(params: CheckoutPageParams, segment: string, kind: CheckoutKind) {
  const tenant = await requireTenant();
  const { slug } = await params;
  if (!isValidCarSlug(slug)) notFound();
  if (segment !== tenant.config.vehiclePath) permanentRedirect(`${carPath(tenant, slug)}/${kind === 'reserve' ? 'checkout' : 'buy-online'}`);
  const car = await getCarBySlug(tenant, slug);
  return { tenant, slug, car };
}

export async function checkoutPageMetadata(params: CheckoutPageParams, segment: string, kind: CheckoutKind): Promise<Metadata> {
  const { tenant, car } = await resolve(params, segment, kind);
  return {
    title: car ? `${spell(tenant.config, CHECKOUT_TITLES[kind])}: ${car.name}` : spell(tenant.config, CHECKOUT_TITLES[kind]),
    robots: { index: false, follow: false },
  };
}

export async function CheckoutPage({ params, segment, kind }: { params: CheckoutPageParams; segment: string; kind: CheckoutKind }) {
  const { tenant, slug, car } = await resolve(params, segment, kind);
  return <CheckoutBody tenant={tenant} slug={slug} car={car} kind={kind} />;
}

/**
 * The car, the deposit and the terms, then the flow: the deposit step, or what `renderFlow` makes
 * of it. The online purchase's page is its own module so the reserve pages do not load its steps.
 */
export async function CheckoutBody({
  tenant,
  slug,
  car,
  kind,
  renderFlow = (flow) => <CheckoutFlow {...flow} />,
}: {
  tenant: Tenant;
  slug: string;
  car: CarDetail | null;
  kind: CheckoutKind;
  renderFlow?: RenderFlow;
}) {
  const title = spell(tenant.config, CHECKOUT_TITLES[kind]);
  const crumbs = (name: string) => [{ label: 'Home', href: '/' }, { label: name, href: carPath(tenant, slug) }, { label: title }];

  if (!car) {
    // Sold before its display window: still a friendly page, not a 404, for a link followed late.
    const sold = await getSoldCarBySlug(tenant, slug);
    if (!sold) notFound();
    return (
      <Ineligible tenant={tenant} title={title} crumbs={crumbs(sold.name)} name={sold.name} href={carPath(tenant, slug)} reason="sold" similar={[]} />
    );
  }

  let quote: CheckoutQuote;
  try {
    quote = await checkoutQuote(tenant, car.id, kind);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  const reason = reasonOf(tenant, car, kind, quote);
  if (reason) {
    const similar = reason === 'sold' || reason === 'reserved' ? await similarCarsTo(tenant, car) : [];
    return <Ineligible tenant={tenant} title={title} crumbs={crumbs(car.name)} name={car.name} href={carPath(tenant, slug)} reason={reason} similar={similar} />;
  }

  allowPaymentStepCsp(quote.provider);
  const photo = car.image ? cardPhotoSources({ url: car.image.url, quality: tenant.config.carPage.imageQuality }) : null;
  const price = formatMoney(tenant.config, car.price);
  const flow: DepositFlow = {
    car: { id: car.id, slug: car.slug, name: car.name },
    kind,
    amountDisplay: quote.amount_display ?? '',
    holdMinutes: quote.hold_minutes,
    refundTerms: quote.refund_terms,
    dealer: { name: car.dealershipName, phone: car.phone },
    carBasePath: `/${tenant.config.vehiclePath}`,
    phoneRule: phoneRuleFor(tenant.config),
  };

  return (
    <>
      <PageHeader title={title} lead={car.name} breadcrumbs={crumbs(car.name)} />
      <Container className="py-8 md:py-12">
        <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="space-y-6">
            <section aria-labelledby="checkout-car" className="rounded-site border border-gray-200 bg-white p-5 shadow-sm sm:p-6" data-checkout="summary">
              <div className="flex flex-col gap-5 sm:flex-row">
                {photo ? (
                  <img src={photo.src} srcSet={photo.srcSet} alt={car.name} width={320} height={213} className="aspect-[3/2] w-full rounded-site object-cover sm:w-56" />
                ) : null}
                <div className="min-w-0 space-y-2">
                  <h2 id="checkout-car" className="text-lg font-bold text-gray-900">
                    <Link href={carPath(tenant, slug)} prefetch={false} className="hover:underline">
                      {car.name}
                    </Link>
                  </h2>
                  <p className="text-gray-800">
                    Price: <strong>{price}</strong>
                    {car.priceType ? ` ${car.priceType}` : ''}
                  </p>
                  <p className="text-gray-800">
                    Deposit today: <strong data-checkout="deposit">{quote.amount_display}</strong> (refundable)
                  </p>
                  <p className="text-gray-700">We hold the car for {quote.hold_minutes} minutes while you pay, then until you can inspect it.</p>
                </div>
              </div>
              <details className="mt-5 rounded-site bg-gray-50 p-4" open>
                <summary className="cursor-pointer font-semibold text-gray-900">Refund terms</summary>
                <p className="mt-2 text-gray-800" data-checkout="refund-terms">
                  {quote.refund_terms}
                </p>
              </details>
            </section>
            <section className="rounded-site border border-gray-200 bg-white p-5 shadow-sm sm:p-8" data-checkout="flow">
              {renderFlow(flow)}
            </section>
          </div>
          <ContactAside tenant={tenant} />
        </div>
      </Container>
    </>
  );
}

function Ineligible({
  tenant,
  title,
  crumbs,
  name,
  href,
  reason,
  similar,
}: {
  tenant: Tenant;
  title: string;
  crumbs: { label: string; href?: string }[];
  name: string;
  href: string;
  reason: Reason;
  similar: SimilarCar[];
}) {
  return (
    <>
      <PageHeader title={title} lead={name} breadcrumbs={crumbs} />
      <Container className="py-8 md:py-12">
        <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <section className="space-y-5 rounded-site border border-gray-200 bg-white p-5 shadow-sm sm:p-8" data-checkout="ineligible" data-reason={reason}>
            <h2 className="text-xl font-bold text-gray-900">{spell(tenant.config, 'This car cannot be reserved online')}</h2>
            <p className="text-gray-800">{spell(tenant.config, REASONS[reason])}</p>
            <p>
              <Link href={href} prefetch={false} className="font-semibold text-brand-text underline">
                Back to the {name}
              </Link>
            </p>
            {similar.length ? (
              <div>
                <h3 className="font-semibold text-gray-900">{spell(tenant.config, 'Similar cars you can reserve')}</h3>
                <ul className="mt-2 list-disc space-y-1 pl-5">
                  {similar.map((s) => (
                    <li key={s.id}>
                      <Link href={carPath(tenant, s.slug)} prefetch={false} className="text-brand-text underline">
                        {s.name}
                      </Link>{' '}
                      – {formatMoney(tenant.config, s.price)}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </section>
          <ContactAside tenant={tenant} />
        </div>
      </Container>
    </>
  );
}
