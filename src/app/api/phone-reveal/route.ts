import { phoneRevealHandler } from '@/modules/stock/car-phone.http';

export const dynamic = 'force-dynamic';

export function POST(request: Request): Promise<Response> {
  return phoneRevealHandler(request);
}
