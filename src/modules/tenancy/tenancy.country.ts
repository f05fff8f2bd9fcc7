import type { PhoneCountry, PhoneRule } from '@/lib/phone';
import type { WebsiteConfig } from './tenancy.config';

/** The website's country (its phone and postcode rules) from its locale. */
export const COUNTRY_BY_LOCALE: Record<WebsiteConfig['locale'], PhoneCountry> = { 'en-AU': 'AU', 'en-NZ': 'NZ', 'en-US': 'US' };

/** The phone rule of a website: country from its locale; mobile-only, E.164 and test number from config. */
export function phoneRuleFor(config: Pick<WebsiteConfig, 'locale' | 'leads'>): PhoneRule {
  return {
    country: COUNTRY_BY_LOCALE[config.locale],
    mobileOnly: config.leads.mobileOnly,
    format: config.leads.phoneFormat,
    testNumber: config.leads.testPhoneNumber,
  };
}
