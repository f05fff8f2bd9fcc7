import { z } from 'zod';
import { BadRequestError, HTTP_MESSAGES, NotFoundError, dealerRoute, jsonResponse, parseParams, pathIdSchema } from '@/lib/http';
import { LEAD_LIST_STATUSES, listDealershipLeads } from '@/modules/leads/leads.queries';

// Dashboard API: GET /dealerships/{id}/leads.json?page=&per_page=&from=&to=&status=
export const dynamic = 'force-dynamic';

type Params = { id: string };
const paramsSchema = z.object({ id: pathIdSchema });

const dateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/, 'must be an ISO date (YYYY-MM-DD) or date-time')
  .transform((value) => new Date(/T/.test(value) ? value : `${value}T00:00:00Z`))
  .refine((date) => !Number.isNaN(date.getTime()), 'must be a real date');

const querySchema = z.object({
  page: z.string().regex(/^[1-9]\d{0,5}$/, 'must be a whole number from 1').transform(Number).default(1),
  per_page: z.string().regex(/^[1-9]\d{0,2}$/, 'must be 1 to 100').transform(Number).refine((n) => n <= 100, 'must be 1 to 100').default(25),
  from: dateSchema.optional(),
  to: dateSchema.optional(),
  status: z.enum(LEAD_LIST_STATUSES, { error: `must be one of ${LEAD_LIST_STATUSES.join(', ')}` }).optional(),
});

export const GET = dealerRoute<Params>(async ({ request, params, principal }) => {
  const { id } = parseParams(paramsSchema, params);
  if (id !== principal.dealershipId) throw new NotFoundError();
  const search = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = querySchema.safeParse(search);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[issue.path.join('.') || 'query'] ??= issue.message;
    throw new BadRequestError(HTTP_MESSAGES.badRequest, fields);
  }
  const q = parsed.data;
  const result = await listDealershipLeads(principal.websiteId, id, { from: q.from, to: q.to, status: q.status, page: q.page, perPage: q.per_page });
  return jsonResponse(result, { headers: { 'Cache-Control': 'private, no-store' } });
});
