import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { spell } from '@/lib/format';
import { formatRepayment, repaymentEstimate } from '@/modules/finance/finance.display';
import { isForSale } from '@/modules/stock/car-page.rules';
import { priceDisplay } from '@/modules/stock/stock.rules';
import type { CarSummary } from '@/modules/stock/stock.types';

/** What PriceBlock shows, worked out on the server: plain strings, so a client card can take it as a prop. */
export type PriceView = {
  price: string | null;
  priceType: string | null;
  beforePrice: string | null;
  /** Shown instead of a price (pre-order or no-price text). */
  text: string | null;
  /** The car's instant quote (decision 052): the weekly amount, its rate and that rate's comparison rate. */
  estimate: { weekly: string; rate: string; comparisonRate: string } | null;
  subscription: string | null;
};

export function priceView(
  car: Pick<CarSummary, 'price' | 'priceType' | 'beforePrice' | 'subscriptionPrice' | 'preorder' | 'status' | 'reserved'>,
  config: WebsiteConfig,
): PriceView {
  const display = priceDisplay(car, config);
  // Finance only on a car that can be bought (sold, reserved: no estimate).
  const estimate = display.price && !display.subscription && isForSale(car, config) ? repaymentEstimate(config, car.price) : null;
  return {
    price: display.price,
    priceType: display.priceType,
    beforePrice: display.beforePrice,
    text: display.price ? null : spell(config, display.text ?? ''),
    estimate: estimate
      ? { weekly: formatRepayment(estimate.weeklyRepaymentAmount), rate: estimate.advertisedRate.toFixed(2), comparisonRate: estimate.comparisonRate.toFixed(2) }
      : null,
    subscription: display.subscription,
  };
}
