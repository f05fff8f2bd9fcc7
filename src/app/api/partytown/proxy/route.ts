import { proxyWidgetScript } from '@/modules/widgets/widgets.partytown';

// GET /api/partytown/proxy?url=: a tag script without CORS headers, for this website's worker only (decision 043).
export const dynamic = 'force-dynamic';

export function GET(request: Request): Promise<Response> {
  return proxyWidgetScript(request);
}
