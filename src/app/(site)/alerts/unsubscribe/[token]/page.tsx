import type { Metadata } from 'next';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import { ALERT_MESSAGES, alertSettings, readUnsubscribeToken, UNSUBSCRIBE_API_PATH } from '@/modules/alerts/alerts.consent';
import { requireTenant } from '@/modules/tenancy/tenancy.request';

/**
 * The unsubscribe link of every alert (decision 066): works without signing in. Opening it
 * changes nothing (mail scanners open links); its one button posts to the one-click address,
 * which comes back here saying it is done.
 */

// The token is the link's secret: no other site may see it as a referrer (same-origin keeps the form's Origin).
export const metadata: Metadata = { title: 'Unsubscribe from alerts', robots: { index: false, follow: false }, referrer: 'same-origin' };
export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function UnsubscribePage({ params, searchParams }: Props) {
  const tenant = await requireTenant();
  const token = decodeURIComponent((await params).token);
  const done = (await searchParams).done === '1';
  const customerId = await readUnsubscribeToken(tenant.id, token);
  const on = customerId ? (await alertSettings(tenant, customerId)).on : false;
  // A website may have turned its garage off since the alert was sent: the link still works, and no page names it.
  const garage = tenant.config.garage.enabled;
  let body;
  if (!customerId) {
    body = (
      <section aria-labelledby="unsubscribe-status" className="rounded-site border-2 border-amber-500 bg-amber-50 p-5">
        <h2 id="unsubscribe-status" className="text-xl font-bold text-gray-900">This link is not valid</h2>
        <p className="mt-3 text-gray-800">{ALERT_MESSAGES.badLink} Open it again from the alert you received{garage ? ', or turn alerts off in your garage' : ''}.</p>
      </section>
    );
  } else if (!on) {
    body = (
      <section aria-labelledby="unsubscribe-status" className="rounded-site border-2 border-green-700 bg-green-50 p-5" data-unsubscribed="true">
        <h2 id="unsubscribe-status" className="text-xl font-bold text-gray-900">{done ? 'You are unsubscribed' : 'Alerts are off'}</h2>
        <p className="mt-3 text-gray-800">{ALERT_MESSAGES.unsubscribed}{garage ? ' You can turn them on again in your garage.' : ''}</p>
      </section>
    );
  } else {
    body = (
      <section aria-labelledby="unsubscribe-status" className="rounded-site border-2 border-gray-200 bg-white p-5">
        <h2 id="unsubscribe-status" className="text-xl font-bold text-gray-900">Stop alerts from {tenant.name}?</h2>
        <p className="mt-3 text-gray-800">You will get no more messages about your saved cars and searches.{garage ? ' They stay saved in your garage.' : ''}</p>
        <form method="post" action={`${UNSUBSCRIBE_API_PATH}/${encodeURIComponent(token)}`} className="pt-4">
          <button type="submit" className="inline-flex min-h-12 w-full items-center justify-center rounded-site bg-gray-900 px-5 py-2 text-base font-semibold text-white hover:bg-gray-700 sm:w-auto">
            Unsubscribe
          </button>
        </form>
      </section>
    );
  }
  return (
    <>
      <PageHeader title="Alerts" lead={`Messages from ${tenant.name} about the cars and searches you saved.`} />
      <Container size="narrow" className="py-8 md:py-12">
        {body}
      </Container>
    </>
  );
}
