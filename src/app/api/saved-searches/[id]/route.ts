import { z } from 'zod';
import { NotFoundError, jsonResponse, parseWith, readJsonBody, visitorRoute } from '@/lib/http';
import { isCleanText } from '@/lib/clean-text';
import { deleteSavedSearch, SAVED_SEARCH_NAME_MAX, updateSavedSearch } from '@/modules/alerts/alerts.saved-searches';
import { requireGarageCustomer } from '@/modules/identity/identity.http';

export const dynamic = 'force-dynamic';

const idSchema = z.uuid();
const changeSchema = z
  .strictObject({ name: z.string().trim().min(1).max(SAVED_SEARCH_NAME_MAX).refine((name) => isCleanText(name, false), 'must be plain text on one line').optional(), paused: z.boolean().optional() })
  .refine((change) => change.name !== undefined || change.paused !== undefined, { message: 'name or paused is required', path: ['body'] });

/** PATCH /api/saved-searches/{id} {name?, paused?} → {ok}: renames or pauses one of the visitor's saved searches. */
export const PATCH = visitorRoute<{ id: string }>(async ({ request, tenant, params }) => {
  const customerId = await requireGarageCustomer(tenant, request);
  if (!idSchema.safeParse(params.id).success) throw new NotFoundError();
  const change = parseWith(changeSchema, await readJsonBody(request, 2 * 1024));
  if (!(await updateSavedSearch(tenant, customerId, params.id, change))) throw new NotFoundError();
  return jsonResponse({ ok: true }, { headers: { 'Cache-Control': 'private, no-store' } });
});

/** DELETE /api/saved-searches/{id} → 204; 404 when it is not one of the visitor's. */
export const DELETE = visitorRoute<{ id: string }>(async ({ request, tenant, params }) => {
  const customerId = await requireGarageCustomer(tenant, request);
  if (!idSchema.safeParse(params.id).success || !(await deleteSavedSearch(tenant, customerId, params.id))) throw new NotFoundError();
  return new Response(null, { status: 204 });
});
