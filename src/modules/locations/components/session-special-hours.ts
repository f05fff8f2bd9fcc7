import 'server-only';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { parseSpecialHours } from '../locations.hours';
import { getWebsiteSessionData } from '../locations.queries';
import type { SpecialHoursEntry } from '../locations.types';

/** Special hours as pages receive them: from website_session_data (SPEC §7), read in either entry shape. */
export async function sessionSpecialHours(tenant: Tenant, now: Date): Promise<SpecialHoursEntry[]> {
  const session = await getWebsiteSessionData(tenant, now);
  return parseSpecialHours(session.special_hours);
}
