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

export function isLoopbackAddress(address: string | null): boolean {
  const normalised = normaliseAddress(address);
  if (!normalised) return false;
  return normalised === '::1' || /^127\./.test(normalised);
}

/** For a page: whether this request's client may see the demo pages. */
export async function demoPagesVisible(): Promise<boolean> {
  return demoPagesVisibleTo((await headers()).get(CLIENT_ADDRESS_HEADER));
}
