import { z } from 'zod';
import { NotFoundError, dealerRoute, parseParams, pathIdSchema } from '@/lib/http';
import { findDealershipLeadFile } from '@/modules/leads/leads.queries';
import { leadIdSchema } from '@/modules/leads/server';

// Dashboard API: GET /dealerships/{id}/leads/{lead_id}/files/{file_id} — a photo or PDF the visitor sent with the lead.
export const dynamic = 'force-dynamic';

const paramsSchema = z.object({ id: pathIdSchema, leadId: leadIdSchema, fileId: leadIdSchema });

export const GET = dealerRoute<{ id: string; leadId: string; fileId: string }>(async ({ params, principal }) => {
  const { id, leadId, fileId } = parseParams(paramsSchema, params);
  if (id !== principal.dealershipId) throw new NotFoundError();
  const file = await findDealershipLeadFile(principal.websiteId, id, leadId.toLowerCase(), fileId.toLowerCase());
  if (!file) throw new NotFoundError();
  // The stored type was sniffed from the bytes on upload; the name is reduced to safe characters.
  const name = file.fileName.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'file';
  return new Response(new Uint8Array(file.content), {
    headers: {
      'Content-Type': file.contentType,
      'Content-Length': String(file.content.length),
      'Content-Disposition': `attachment; filename="${name}"`,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
    },
  });
});
