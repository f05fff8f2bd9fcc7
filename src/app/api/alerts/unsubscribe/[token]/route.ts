import { readFormFields, visitorRoute } from '@/lib/http';
import { ALERT_MESSAGES, readUnsubscribeToken, turnAlertsOff, UNSUBSCRIBE_PATH } from '@/modules/alerts/alerts.consent';

export const dynamic = 'force-dynamic';

type Params = { token: string };

const seeOther = (location: string) => new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });

/** GET: a mail client that opens the List-Unsubscribe address instead of posting to it lands on the page, which asks first. */
export const GET = visitorRoute<Params>(async ({ params }) => seeOther(`${UNSUBSCRIBE_PATH}/${encodeURIComponent(params.token)}`));

/**
 * POST /api/alerts/unsubscribe/{token}: unsubscribes without signing in (decision 066). The
 * one-click POST of RFC 8058 (body List-Unsubscribe=One-Click, from the mail provider) gets 200;
 * the unsubscribe page's button gets 303 back to the page, which says it is done. A token this
 * website did not sign changes nothing (404).
 */
export const POST = visitorRoute<Params>(
  async ({ request, tenant, params }) => {
    const fields = await readFormFields(request, 1024);
    const customerId = await readUnsubscribeToken(tenant.id, params.token);
    const oneClick = fields['List-Unsubscribe'] === 'One-Click';
    if (!customerId) {
      if (oneClick) return Response.json({ error: ALERT_MESSAGES.badLink }, { status: 404, headers: { 'Cache-Control': 'no-store' } });
      return seeOther(`${UNSUBSCRIBE_PATH}/${encodeURIComponent(params.token)}`);
    }
    await turnAlertsOff(tenant.id, customerId);
    if (oneClick) return Response.json({ unsubscribed: true, message: ALERT_MESSAGES.unsubscribed }, { headers: { 'Cache-Control': 'no-store' } });
    return seeOther(`${UNSUBSCRIBE_PATH}/${encodeURIComponent(params.token)}?done=1`);
  },
  { accepted: ['form'] },
);
