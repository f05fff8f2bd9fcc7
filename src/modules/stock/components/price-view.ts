import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { formatMoney, spell } from '@/lib/format';
import { repaymentEstimate } from '@/modules/finance/finance.display';
import { priceDisplay } from '../stock.rules';
import type { CarSummary } from '../stock.types';

/** What PriceBlock shows, worked out on the server: plain strings, so a client card can take it as a prop. */
export type PriceView = {
  price: string | null;
  priceType: string | null;
  beforePrice: string | null;
  /** Shown instead of a price (pre-order or no-price text). */
  text: string | null;
  estimate: { weekly: string; comparisonRate: string } | null;
  subscription: string | null;
};

export function priceView(
  car: Pick<CarSummary, 'price' | 'priceType' | 'beforePrice' | 'subscriptionPrice' | 'preorder'>,
  config: WebsiteConfig,
): PriceView {
  const display = priceDisplay(car, config);
  const estimate = display.price && !display.subscription ? repaymentEstimate(config, car.price) : null;
  return {
    price: display.price,
    priceType: display.priceType,
    beforePrice: display.beforePrice,
    text: display.price ? null : spell(config, display.text ?? ''),
    estimate: estimate ? { weekly: formatMoney(config, Math.round(estimate.weekly)), comparisonRate: estimate.comparisonRate.toFixed(2) } : null,
    subscription: display.subscription,
  };
}
