import 'server-only';
import { env } from '@/lib/env';
import { logger } from '@/lib/logger';
import type { Tenant } from '../../tenancy/tenancy.types';
import { carClarityPartner } from './carclarity-http';
import { localPartner } from './local';
import type { FinancePartner } from './types';
import { youxPartner } from './youx-http';

export type { FinanceApplication, FinancePartner, HandOver } from './types';

const warned = new Set<string>();

/**
 * The dealership's partner (website configuration finance.partners), or the platform's own. With no
 * dealership named, a website that configures exactly one dealership uses that one's partner.
 * `only` forces a partner (POST /api/carClarityCustomer); an HTTP partner this deployment has no
 * keys for falls back to the local partner, so applications are still taken.
 */
export function partnerFor(tenant: Tenant, dealershipSlug: string | null, only?: 'carclarity'): { partner: FinancePartner; partnerCode: string | null } {
  const partners = tenant.config.finance.partners;
  const configured = Object.keys(partners);
  const slug = dealershipSlug ?? (configured.length === 1 ? configured[0] : null);
  const chosen = (slug !== null && Object.hasOwn(partners, slug) ? partners[slug] : undefined) ?? null;
  const name = only ?? chosen?.partner ?? 'local';
  const partnerCode = chosen?.partner === name ? chosen.partnerCode : null;
  if (name === 'local') return { partner: localPartner, partnerCode };
  if (name === 'youx') {
    const hosted = Boolean(chosen?.hostedApplication && partnerCode);
    // The hosted application page needs no API keys: quotes then come from the calculator.
    if (env().youx || hosted) return { partner: youxPartner(env().youx, { hostedApplication: hosted }), partnerCode };
  } else if (env().carclarity) {
    return { partner: carClarityPartner(env().carclarity!), partnerCode };
  }
  if (!warned.has(name)) logger.warn({ partner: name }, 'finance partner not configured (base URL and API key); using the local partner');
  warned.add(name);
  return { partner: localPartner, partnerCode };
}
