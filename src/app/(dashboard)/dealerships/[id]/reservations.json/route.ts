import { z } from 'zod';
import { BadRequestError, HTTP_MESSAGES, NotFoundError, dealerRoute, jsonResponse, parseParams, pathIdSchema } from '@/lib/http';
import { listDealershipReservations } from '@/modules/checkout/checkout.queries';
import { RESERVATION_STATUSES } from '@/modules/checkout/checkout.schema';

// Dashboard API: GET /dealerships/{id}/reservations.json?page=&per_page=&status= — the dealership's reservations, newest first.
export const dynamic = 'force-dynamic';

const paramsSchema = z.object({ id: pathIdSchema });

const querySchema = z.object({
  page: z.string().regex(/^[1-9]\d{0,5}$/, 'must be a whole number from 1').transform(Number).default(1),
  per_page: z.string().regex(/^[1-9]\d{0,2}$/, 'must be 1 to 100').transform(Number).refine((n) => n <= 100, 'must be 1 to 100').default(25),
  status: z.enum(RESERVATION_STATUSES, { error: `must be one of ${RESERVATION_STATUSES.join(', ')}` }).optional(),
});

export const GET = dealerRoute<{ id: string }>(async ({ request, params, principal }) => {
  const { id } = parseParams(paramsSchema, params);
  if (id !== principal.dealershipId) throw new NotFoundError();
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[issue.path.join('.') || 'query'] ??= issue.message;
    throw new BadRequestError(HTTP_MESSAGES.badRequest, fields);
  }
  const result = await listDealershipReservations(principal.websiteId, id, { page: parsed.data.page, perPage: parsed.data.per_page, status: parsed.data.status });
  return jsonResponse(result, { headers: { 'Cache-Control': 'private, no-store' } });
});
