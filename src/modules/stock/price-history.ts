import { formatDate, formatMoney, type DateConfig } from '@/lib/format';
import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { MIN_SHOWN_PRICE } from './stock.rules';
import type { PriceChange } from './stock.types';

/** The most changes a car page shows (and reads): the newest ones. */
export const PRICE_CHANGES_SHOWN = 10;

export const PRICE_HISTORY_MESSAGES = {
  heading: 'Price history',
  down: 'Reduced to',
  up: 'Increased to',
} as const;

export type PriceHistoryLine = { date: string; price: string; was: string; direction: 'down' | 'up' };

/**
 * A car's price history as the car page shows it (issue 35): the changes held, newest first, each
 * with its date and the price before. Only changes between two shown prices (SPEC §5: above
 * MIN_SHOWN_PRICE), and nothing when the car's own price is not shown or the website turned it
 * off. Never a claim beyond the changes held (no 'lowest ever').
 */
export function priceHistory(
  car: { price: number; priceChanges: readonly PriceChange[] },
  config: Pick<WebsiteConfig, 'carPage' | 'locale' | 'currency' | 'distanceUnit'> & DateConfig,
): PriceHistoryLine[] | null {
  if (!config.carPage.priceHistory || car.price <= MIN_SHOWN_PRICE) return null;
  const lines = car.priceChanges
    .filter((change) => change.from > MIN_SHOWN_PRICE && change.to > MIN_SHOWN_PRICE && change.from !== change.to)
    .map((change) => ({
      date: formatDate(config, change.at),
      price: formatMoney(config, change.to),
      was: formatMoney(config, change.from),
      direction: change.to < change.from ? ('down' as const) : ('up' as const),
    }));
  return lines.length > 0 ? lines : null;
}
