import { clientAddress } from '@/lib/client-address';
import { jsonResponse, HttpError, visitorRoute } from '@/lib/http';
import { contactExists } from '@/modules/identity/identity.codes';
import { LEAD_MESSAGES } from '@/modules/leads';

export const dynamic = 'force-dynamic';

/**
 * GET /api/check-if-contact-exists?phone_number=… (SPEC §7) → {data: {exists}, error: null}, or
 * {data: null, error} with a 4xx. Only this website's customers count.
 */
export const GET = visitorRoute(async ({ request, tenant }) => {
  const raw = new URL(request.url).searchParams.get('phone_number') ?? '';
  try {
    if (!raw.trim()) throw new HttpError(422, LEAD_MESSAGES.required);
    const exists = await contactExists(tenant, raw.slice(0, 40), clientAddress(request));
    return jsonResponse({ data: { exists }, error: null }, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
    if ('retryAfterSeconds' in error) headers['Retry-After'] = String(error.retryAfterSeconds);
    return jsonResponse({ data: null, error: error.message }, { status: error.status, headers });
  }
});
