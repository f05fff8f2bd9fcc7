import { z } from 'zod';
import { jsonResponse, originOf, parseWith, readJsonBody, ValidationError, visitorRoute } from '@/lib/http';
import { AlertRefusal, alertSettings, turnAlertsOff, turnAlertsOn } from '@/modules/alerts/alerts.consent';
import { requireGarageCustomer } from '@/modules/identity/identity.http';

export const dynamic = 'force-dynamic';

const NO_STORE = { 'Cache-Control': 'private, no-store' };
const bodySchema = z.strictObject({
  channel: z.enum(['email', 'sms']),
  email: z.string().max(254).optional(),
  instant_price_drops: z.boolean().default(false),
  consent: z.boolean(),
});

/** GET /api/alerts → {alerts}: the signed-in visitor's alert settings on this website (decision 066). */
export const GET = visitorRoute(async ({ request, tenant }) => {
  const customerId = await requireGarageCustomer(tenant, request);
  return jsonResponse({ alerts: await alertSettings(tenant, customerId) }, { headers: NO_STORE });
});

/** POST /api/alerts {channel, email?, instant_price_drops, consent: true} → {alerts}: turns alerts on with the consent given now. */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const customerId = await requireGarageCustomer(tenant, request);
  const body = parseWith(bodySchema, await readJsonBody(request, 4 * 1024));
  try {
    const alerts = await turnAlertsOn(tenant, customerId, { channel: body.channel, email: body.email, instantPriceDrops: body.instant_price_drops, consent: body.consent, origin: originOf(tenant, request) });
    return jsonResponse({ alerts }, { headers: NO_STORE });
  } catch (error) {
    if (error instanceof AlertRefusal) throw new ValidationError({ [error.field]: error.message });
    throw error;
  }
});

/** DELETE /api/alerts → {alerts}: turns the signed-in visitor's alerts off. */
export const DELETE = visitorRoute(async ({ request, tenant }) => {
  const customerId = await requireGarageCustomer(tenant, request);
  await turnAlertsOff(tenant.id, customerId);
  return jsonResponse({ alerts: await alertSettings(tenant, customerId) }, { headers: NO_STORE });
});
