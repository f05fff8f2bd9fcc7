import 'server-only';
import { env } from '@/lib/env';
import { logger } from '@/lib/logger';
import type { Tenant } from '../../tenancy/tenancy.types';
import { carClarityPartner } from './carclarity-http';
import { localPartner } from './local';
import type { FinancePartner } from './types';
import { youxPartner } from './youx-http';

const warned = new Set<string>();

/** The dealership's partner (website configuration finance.partners), or the platform's own. */
export function partnerFor(tenant: Tenant, dealershipSlug: string | null, only?: 'carclarity'): { partner: FinancePartner; partnerCode: string | null } {
  const chosen = (dealershipSlug ? tenant.config.finance.partners[dealershipSlug] : undefined) ?? null;
  const name = only ?? chosen?.partner ?? 'local';
  const partnerCode = chosen?.partnerCode ?? null;
  if (name === 'local') return { partner: localPartner, partnerCode };
  const config = name === 'youx' ? env().youx : env().carclarity;
  if (!config) {
    // Configured for a partner this deployment has no keys for: keep taking applications locally.
    if (!warned.has(name)) logger.warn({ partner: name }, 'finance partner not configured; using the local partner');
    warned.add(name);
    return { partner: localPartner, partnerCode };
  }
  return { partner: name === 'youx' ? youxPartner(config, { hostedApplication: chosen?.hostedApplication ?? false }) : carClarityPartner(config), partnerCode };
}
