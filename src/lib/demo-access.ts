import 'server-only';
import { headers } from 'next/headers';
import { CLIENT_ADDRESS_HEADER, normaliseAddress } from './client-address';
import { env } from './env';

/**
 * Who may see the demo pages (/dev/outbox: every lead's personal data, sign-in codes). Demo mode is
 * on by default with the embedded database, so that `npm start` on a laptop shows the whole flow;
 * then only clients on this machine (loopback) see them. A deployment that wants them visible from
 * elsewhere says DEMO_MODE=1; DEMO_MODE=0 hides them from everyone.
 */
export function demoPagesVisibleTo(address: string | null, settings = env()): boolean {
  if (!settings.demoMode) return false;
  return settings.demoModeForEveryone || isLoopbackAddress(address);
}

/**
 * Whether `{website-slug}.localhost` names a website: only in demo mode. Such a host reaches any
 * website of the platform without a domain of its own, which a laptop's demo wants and a deployment
 * must not offer (a client can send any Host). Outside demo mode a website answers on its domains only.
 */
export function devHostsAnswer(settings = env()): boolean {
  return settings.demoMode;
}

export function isLoopbackAddress(address: string | null): boolean {
  const normalised = normaliseAddress(address);
  if (!normalised) return false;
  return normalised === '::1' || /^127\./.test(normalised);
}

/** For a page: whether this request's client may see the demo pages. */
export async function demoPagesVisible(): Promise<boolean> {
  return demoPagesVisibleTo((await headers()).get(CLIENT_ADDRESS_HEADER));
}
