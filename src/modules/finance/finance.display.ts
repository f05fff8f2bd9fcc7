import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { carQuote, disclaimerText, FINANCE_MIN_AMOUNT, financeSettings, type FinanceSettings, type InstantQuote } from './finance.calc';

/**
 * Where a repayment estimate may be shown beside a price (issue 15, part 5). Australian websites
 * show 'from $X/week' with the comparison rate (National Credit Code: an advertised rate comes with
 * a comparison rate no less prominent). NZ (CCCFA: the total of payments once a payment is shown)
 * and US (Regulation Z: the APR and the terms once a payment is shown) websites hide the estimate
 * rather than show a figure without what their law requires with it.
 */

/** Below this price an estimate helps nobody (a car's price is financed down to it, decision 052). */
export const ESTIMATE_MIN_PRICE = FINANCE_MIN_AMOUNT;
export const DISCLAIMER_ANCHOR = 'finance-disclaimer';

export function financeSettingsOf(config: WebsiteConfig): FinanceSettings {
  const { rates, establishmentFee, monthlyFee, calculatorInterest, secured, disclaimer } = config.finance;
  return financeSettings({ rates, establishmentFee, monthlyFee, calculatorInterest, secured, disclaimer });
}

export function showsRepayments(config: WebsiteConfig): boolean {
  return config.finance.showRepayments && config.currency === 'AUD';
}

/**
 * The estimate for a car's price, or null where none is shown: the instant quote for the car with
 * the popup's starting inputs (carQuote), so the card, the car page, the popup and /finance agree.
 * Callers decide first whether the car is for sale at all (isForSale, decision 052).
 */
export function repaymentEstimate(config: WebsiteConfig, price: number | null | undefined): InstantQuote | null {
  if (!showsRepayments(config) || !price || price < ESTIMATE_MIN_PRICE) return null;
  return carQuote(price, financeSettingsOf(config));
}

/** '$66.29': a repayment as the quote gives it, to the cent, in every place it is shown. */
export function formatRepayment(amount: number): string {
  return `$${amount.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

export function financeDisclaimer(config: WebsiteConfig): string {
  return disclaimerText(financeSettingsOf(config));
}
