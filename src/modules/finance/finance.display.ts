import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { calculatorComparisonRate, disclaimerText, financeSettings, weeklyEstimate, type FinanceSettings } from './finance.calc';

/**
 * Where a repayment estimate may be shown beside a price (issue 15, part 5). Australian websites
 * show 'from $X/week' with the comparison rate (National Credit Code: an advertised rate comes with
 * a comparison rate no less prominent). NZ (CCCFA: the total of payments once a payment is shown)
 * and US (Regulation Z: the APR and the terms once a payment is shown) websites hide the estimate
 * rather than show a figure without what their law requires with it.
 */

/** Below this price an estimate helps nobody (and the calculator's clamps start at $10,000). */
export const ESTIMATE_MIN_PRICE = 5_000;
export const DISCLAIMER_ANCHOR = 'finance-disclaimer';

export function financeSettingsOf(config: WebsiteConfig): FinanceSettings {
  const { rates, establishmentFee, monthlyFee, calculatorInterest, secured, disclaimer } = config.finance;
  return financeSettings({ rates, establishmentFee, monthlyFee, calculatorInterest, secured, disclaimer });
}

export function showsRepayments(config: WebsiteConfig): boolean {
  return config.finance.showRepayments && config.currency === 'AUD';
}

/** The instant quote and hand-over: the partners (YouX, CarClarity) lend in Australia only. */
export function offersInstantFinance(config: WebsiteConfig): boolean {
  return config.finance.instantQuote && config.currency === 'AUD';
}

export type RepaymentEstimate = { weekly: number; comparisonRate: number };

/** The estimate for a car's price, or null where none is shown. */
export function repaymentEstimate(config: WebsiteConfig, price: number | null | undefined): RepaymentEstimate | null {
  if (!showsRepayments(config) || !price || price < ESTIMATE_MIN_PRICE) return null;
  const settings = financeSettingsOf(config);
  return { weekly: weeklyEstimate(price, settings), comparisonRate: calculatorComparisonRate(settings) };
}

export function financeDisclaimer(config: WebsiteConfig): string {
  return disclaimerText(financeSettingsOf(config));
}
