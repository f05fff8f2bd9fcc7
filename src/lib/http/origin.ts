import 'server-only';
import { devHostForSlug, normalizeHost } from '@/lib/host';
import type { Tenant } from '@/modules/tenancy/tenancy.types';

/**
 * The website's own origin, for the URLs a payment provider sends the visitor back to, the
 * sandbox's notifications and the links in a visitor's alerts: the website's domain the request was matched to (findTenantByHost
 * compares the normalised Host with the website's configured domains, so only a configured name
 * passes, never a port, userinfo or junk of the header), or, in demo mode, its `{slug}.localhost`
 * with the port this server listens on (PORT, which `next start` sets). The scheme is the request's.
 */
export function originOf(tenant: Tenant, request: Request): string {
  const { protocol } = new URL(request.url);
  const host = normalizeHost(request.headers.get('host'));
  const devHost = devHostForSlug(tenant.slug);
  if (!host || host === devHost) return `${protocol}//${devHost}${process.env.PORT ? `:${process.env.PORT}` : ''}`;
  return `${protocol}//${host}`;
}
