import { partytownFile } from '@/modules/widgets/widgets.partytown';

// GET /api/partytown/{file}: Partytown's snippet and service worker from the installed package (decision 043).
export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  return partytownFile((await params).file);
}
