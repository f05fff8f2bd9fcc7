import { notificationRoute } from '@/modules/checkout/checkout.http';

export const dynamic = 'force-dynamic';

/** POST /api/checkout/notifications/{sandbox|stripe|till|stgeorge}: the providers' signed notifications (checkout.http.ts). */
export const POST = notificationRoute;
