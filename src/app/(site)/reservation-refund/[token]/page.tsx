import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import { formatDate, formatMoney } from '@/lib/format';
import { refundLinkState, type RefundLinkOutcome } from '@/modules/checkout/checkout.commands';
import type { RefundLinkReservation } from '@/modules/checkout/checkout.commands';
import { requireTenant } from '@/modules/tenancy/tenancy.request';
import type { Tenant } from '@/modules/tenancy/tenancy.types';

/**
 * The refund link of the dealer's reservation email (issue 31): shows the reservation and asks
 * before refunding. Opening it changes nothing; the button posts (same-site) to
 * /api/checkout/refund-links, which comes back here with the outcome. A spent, expired, altered or
 * other website's link says so and offers no button.
 */

// The token is the link's secret: no other site this page links to may see it as a referrer.
// ('same-origin', not 'no-referrer': under no-referrer the form's POST carries 'Origin: null',
// which the same-site rule rightly refuses.)
export const metadata: Metadata = { title: 'Refund a reservation deposit', robots: { index: false, follow: false }, referrer: 'same-origin' };
export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const PROBLEMS = {
  invalid: ['This refund link is not valid', 'The link is incomplete or has been changed. Open it again from the reservation email, or refund the deposit through the Dashboard.'],
  expired: ['This refund link has expired', 'Refund links work for a limited time. Refund the deposit through the Dashboard instead.'],
  'other-website': ['This refund link is for another website', 'Open it on the website the reservation was made on, from the reservation email.'],
  'not-found': ['This reservation was not found', 'It may belong to another dealership. Refund it through the Dashboard.'],
} as const;

function Panel({ tone, title, children }: { tone: 'info' | 'success' | 'warning'; title: string; children: ReactNode }) {
  const tones = { info: 'border-gray-200 bg-white', success: 'border-green-700 bg-green-50', warning: 'border-amber-500 bg-amber-50' };
  return (
    <section aria-labelledby="refund-status" className={`rounded-site border-2 p-5 ${tones[tone]}`} data-refund-state={tone}>
      <h2 id="refund-status" className="text-xl font-bold text-gray-900">
        {title}
      </h2>
      <div className="mt-3 space-y-3 text-gray-800">{children}</div>
    </section>
  );
}

function Details({ tenant, reservation }: { tenant: Tenant; reservation: RefundLinkReservation }) {
  const rows: [string, string][] = [
    ['Car', reservation.carName],
    ["Deposit", `${formatMoney({ ...tenant.config, currency: reservation.currency as typeof tenant.config.currency }, reservation.amountMinor / 100)} ${reservation.currency}`],
    ['Buyer', reservation.visitorName],
    ...(reservation.capturedAt ? ([['Paid', formatDate(tenant.config, reservation.capturedAt, 'dateTime')]] as [string, string][]) : []),
    ['Reference', reservation.id],
  ];
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-semibold text-gray-900">{term}</dt>
          <dd className="break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export default async function RefundLinkPage({ params, searchParams }: Props) {
  const tenant = await requireTenant();
  const { token } = await params;
  const outcomeParam = (await searchParams).outcome;
  const outcome = (Array.isArray(outcomeParam) ? outcomeParam[0] : outcomeParam) as RefundLinkOutcome | undefined;
  const state = await refundLinkState(tenant, decodeURIComponent(token));
  let body: ReactNode;
  if (state.kind === 'problem') {
    const [title, text] = PROBLEMS[state.problem];
    body = (
      <Panel tone="warning" title={title}>
        <p>{text}</p>
        <p>Nothing has been refunded.</p>
      </Panel>
    );
  } else if (state.kind === 'used') {
    const when = state.reservation.refundedAt ?? state.reservation.updatedAt;
    const what = state.reservation.status === 'refunded' ? 'refunded' : 'cancelled';
    body =
      outcome === 'refunded' ? (
        <Panel tone="success" title="The deposit has been refunded">
          <p>The reservation is {what} and the car is back on sale on the website. The buyer&apos;s bank shows the refund within a few business days.</p>
          <Details tenant={tenant} reservation={state.reservation} />
        </Panel>
      ) : (
        <Panel tone="warning" title="This refund link has already been used">
          <p>
            The reservation was {what} on {formatDate(tenant.config, when, 'dateTime')}. Nothing more has been refunded.
          </p>
          <Details tenant={tenant} reservation={state.reservation} />
        </Panel>
      );
  } else if (state.kind === 'nothing') {
    body = (
      <Panel tone="warning" title="There is nothing to refund">
        <p>This reservation was never paid (its status is {state.reservation.status.replace('_', ' ')}). Nothing has been refunded.</p>
        <Details tenant={tenant} reservation={state.reservation} />
      </Panel>
    );
  } else {
    body = (
      <Panel tone="info" title="Refund this deposit?">
        {outcome === 'provider' ? (
          <p role="alert" className="rounded-site border border-red-700 bg-red-50 px-4 py-3 font-medium text-red-900">
            The payment provider did not accept the refund just now. Nothing has been refunded. Please try again in a few minutes.
          </p>
        ) : null}
        <p>Refunding cancels the reservation, returns the whole deposit to the buyer and puts the car back on sale on the website.</p>
        <Details tenant={tenant} reservation={state.reservation} />
        <form method="post" action="/api/checkout/refund-links" className="flex flex-col gap-3 pt-2 sm:flex-row sm:items-center">
          <input type="hidden" name="token" value={decodeURIComponent(token)} />
          <button type="submit" className="inline-flex min-h-12 w-full items-center justify-center rounded-site bg-red-700 px-5 py-2 text-base font-semibold text-white hover:bg-red-800 sm:w-auto">
            Refund the deposit
          </button>
          <p className="text-sm text-gray-700">This link works once, until {formatDate(tenant.config, state.expiresAt, 'dateTime')}.</p>
        </form>
      </Panel>
    );
  }
  return (
    <>
      <PageHeader title="Reservation deposit refund" lead="For the dealership: cancel a reservation and refund its deposit." />
      <Container size="narrow" className="py-8 md:py-12">
        {body}
      </Container>
    </>
  );
}
