import { postEventsHandler } from '@/modules/widgets/widgets.events.http';

// POST /api/events: the visitor's analytics events (SPEC §3, §7), queued and answered 202.
export const dynamic = 'force-dynamic';

export function POST(request: Request): Promise<Response> {
  return postEventsHandler(request);
}
