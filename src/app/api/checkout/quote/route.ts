import { z } from 'zod';
import { dbIdSchema, jsonResponse, ValidationError } from '@/lib/http';
import { checkoutQuote } from '@/modules/checkout/checkout.commands';
import { checkoutRoute } from '@/modules/checkout/checkout.http';

export const dynamic = 'force-dynamic';

const querySchema = z.object({ car_id: dbIdSchema, kind: z.enum(['reserve', 'buy_online'], { error: 'must be reserve or buy_online' }).default('reserve') });

/** GET /api/checkout/quote?car_id={id}&kind=reserve|buy_online → {eligible, amount, currency, amount_display, provider, publishable_key, hold_minutes, refund_terms}. */
export const GET = checkoutRoute(async ({ request, tenant }) => {
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[issue.path.join('.') || 'query'] ??= issue.message;
    throw new ValidationError(fields);
  }
  return jsonResponse(await checkoutQuote(tenant, parsed.data.car_id, parsed.data.kind), { headers: { 'Cache-Control': 'no-store' } });
});
