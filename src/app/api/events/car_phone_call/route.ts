import { carPhoneCallHandler } from '@/modules/stock/car-phone.http';

export const dynamic = 'force-dynamic';

export function POST(request: Request): Promise<Response> {
  return carPhoneCallHandler(request);
}
