import { HttpError, originOf, readFormFields, visitorRoute } from '@/lib/http';
import { AlertRefusal, turnAlertsOff, turnAlertsOn } from '@/modules/alerts/alerts.consent';
import { requireGarageCustomer } from '@/modules/identity/identity.http';

export const dynamic = 'force-dynamic';

const seeOther = (location: string) => new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });

/**
 * POST /api/alerts/form: the garage's alerts form, a plain form (it works before the page's
 * scripts run, decision 060). action=on (channel, email, instant_price_drops, consent) or
 * action=off; back to the garage's alerts section, which says what happened (?alerts=on|off, or
 * the refused field); signed out, to sign-in and back to the garage.
 */
export const POST = visitorRoute(
  async ({ request, tenant }) => {
    const fields = await readFormFields(request, 4 * 1024);
    const garage = tenant.config.garage.path;
    let customerId: string;
    try {
      customerId = await requireGarageCustomer(tenant, request);
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) return seeOther(`/sign-in?next=${encodeURIComponent(garage)}`);
      throw error;
    }
    if (fields.action === 'off') {
      await turnAlertsOff(tenant.id, customerId);
      return seeOther(`${garage}?alerts=off#alerts`);
    }
    const channel = fields.channel === 'sms' ? 'sms' : 'email';
    try {
      await turnAlertsOn(tenant, customerId, { channel, email: fields.email, instantPriceDrops: fields.instant_price_drops === 'on', consent: fields.consent === 'on', origin: originOf(tenant, request) });
    } catch (error) {
      if (error instanceof AlertRefusal) return seeOther(`${garage}?alerts=refused&field=${encodeURIComponent(error.field)}#alerts`);
      throw error;
    }
    return seeOther(`${garage}?alerts=on#alerts`);
  },
  { accepted: ['form'] },
);
