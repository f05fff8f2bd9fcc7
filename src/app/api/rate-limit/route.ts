import { clientAddress } from '@/lib/client-address';
import { jsonResponse, readJsonBody, visitorRoute, parseWith } from '@/lib/http';
import { mayCodeBeSent } from '@/modules/identity/identity.codes';
import { rateLimitSchema } from '@/modules/identity/identity.validation';

export const dynamic = 'force-dynamic';

/** POST /api/rate-limit {phone} (SPEC §7): {ok: true} when a code may be sent now; 429 otherwise. Counts nothing. */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const { phone } = parseWith(rateLimitSchema, await readJsonBody(request, 4 * 1024));
  await mayCodeBeSent(tenant, phone, clientAddress(request));
  return jsonResponse({ ok: true }, { headers: { 'Cache-Control': 'no-store' } });
});
