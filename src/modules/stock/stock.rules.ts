import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { formatMoney } from '@/lib/format';
import type { CarStatus, CarType, CarSummary } from './stock.types';

/**
 * Display rules for stock (SPEC §4, §5, §9). Pure and client-safe: every function takes the car,
 * the website configuration and, where time matters, `now` in epoch milliseconds.
 */

export const DAY_MS = 86_400_000;

/** SPEC §5: a price is shown only above this amount. */
export const MIN_SHOWN_PRICE = 10;

/** Quoted texts of the stock domain, in one place. */
export const STOCK_MESSAGES = {
  noPrice: 'Enquire for price.',
  preorder: 'Pre-order',
  comingSoon: 'Coming Soon',
  reserved: 'Reserved',
  certified: 'Certified',
  electric: 'Electric',
  hybrid: 'Hybrid',
  perWeek: '/week',
} as const;

/** SPEC §5 car slug for fetch: letters, digits, hyphen, underscore only. */
export const CAR_SLUG_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

export function isValidCarSlug(slug: unknown): slug is string {
  return typeof slug === 'string' && CAR_SLUG_PATTERN.test(slug);
}

type VisibilityCar = Pick<CarSummary, 'showOnDealerWebsite' | 'status' | 'soldDateTimestamp'>;
type VisibilityConfig = Pick<WebsiteConfig, 'includeSoldCarsDays'>;

/** Milliseconds a sold car stays listed after its sold date (3 days = 259200000 by default). */
export function soldWindowMs(config: VisibilityConfig): number {
  return Math.max(0, config.includeSoldCarsDays) * DAY_MS;
}

/**
 * Sold within the website's window: the sold date is at most includeSoldCarsDays old (inclusive).
 * A window of 0 days lists no sold car; a sold car without a sold date is not recent.
 */
export function isRecentlySold(car: Pick<CarSummary, 'status' | 'soldDateTimestamp'>, config: VisibilityConfig, now: number): boolean {
  if (car.status !== 'sold' || car.soldDateTimestamp == null) return false;
  const window = soldWindowMs(config);
  return window > 0 && now - car.soldDateTimestamp <= window;
}

export function isAvailable(car: Pick<CarSummary, 'status'>): boolean {
  return car.status === 'in_stock' || car.status === 'coming_soon';
}

/** What a visitor who saved a car is told of (decision 066): sold, reserved, available; null while the website hides it. */
export type CarAlertState = 'available' | 'reserved' | 'sold';

export function carAlertState(car: { status: CarStatus; reserved: boolean; showOnDealerWebsite: boolean }): CarAlertState | null {
  if (car.status === 'sold') return 'sold';
  if (!car.showOnDealerWebsite) return null;
  return car.reserved ? 'reserved' : 'available';
}

/**
 * Whether the car is listed on the dealer website (the SQL twin is visibleCarsWhere in
 * stock.queries.ts): shown on the dealer website, and available or recently sold.
 */
export function isVisible(car: VisibilityCar, config: VisibilityConfig, now: number): boolean {
  return car.showOnDealerWebsite && (isAvailable(car) || isRecentlySold(car, config, now));
}

type DefaultFilterCar = Pick<CarSummary, 'photosCount' | 'city' | 'make'>;

/** The website's standing filters (SPEC §9): minimum photos, cities, makes; case-insensitive. */
export function matchesDefaultFilters(car: DefaultFilterCar, config: Pick<WebsiteConfig, 'search'>): boolean {
  const { minPhotos, cities, makes } = config.search.defaultFilters;
  if (minPhotos != null && car.photosCount < minPhotos) return false;
  if (cities.length > 0 && !cities.some((c) => c.toLowerCase() === (car.city ?? '').toLowerCase())) return false;
  if (makes.length > 0 && !makes.some((m) => m.toLowerCase() === car.make.toLowerCase())) return false;
  return true;
}

export type PriceDisplay = {
  /** Formatted price, e.g. '$24,990'; null when the price is not shown. */
  price: string | null;
  /** 'Drive Away', 'Excl. Govt. Charges'…; only with a price. */
  priceType: string | null;
  /** Struck-through earlier price; only when higher than the shown price. */
  beforePrice: string | null;
  /** e.g. '$129/week', where the website offers subscriptions. */
  subscription: string | null;
  /** Shown instead of a price: the pre-order text or 'Enquire for price.'. */
  text: string | null;
};

type PriceCar = Pick<CarSummary, 'price' | 'priceType' | 'beforePrice' | 'subscriptionPrice' | 'preorder'>;
type PriceConfig = Pick<WebsiteConfig, 'locale' | 'currency' | 'distanceUnit' | 'offersSubscription'>;

/** SPEC §5: price shown only if above 10; otherwise the pre-order text or 'Enquire for price.'. */
export function priceDisplay(car: PriceCar, config: PriceConfig): PriceDisplay {
  const shown = car.price > MIN_SHOWN_PRICE;
  const priceType = car.priceType.trim();
  const subscription =
    config.offersSubscription && car.subscriptionPrice != null && car.subscriptionPrice > 0
      ? `${formatMoney(config, car.subscriptionPrice)}${STOCK_MESSAGES.perWeek}`
      : null;
  if (!shown) {
    return {
      price: null,
      priceType: null,
      beforePrice: null,
      subscription,
      text: car.preorder ? STOCK_MESSAGES.preorder : STOCK_MESSAGES.noPrice,
    };
  }
  return {
    price: formatMoney(config, car.price),
    priceType: priceType === '' ? null : priceType,
    beforePrice: car.beforePrice != null && car.beforePrice > car.price ? formatMoney(config, car.beforePrice) : null,
    subscription,
    text: null,
  };
}

export type TagBannerKind = 'fuel' | 'reserved' | 'certified' | 'custom' | 'coming_soon' | 'just_arrived' | 'sold';
export type TagBanner = { kind: TagBannerKind; label: string };

type TagCar = Pick<
  CarSummary,
  'status' | 'reserved' | 'certified' | 'tag' | 'simpleFuel' | 'createdAtTimestamp' | 'soldDateTimestamp'
>;
type TagConfig = Pick<WebsiteConfig, 'search' | 'specifications' | 'includeSoldCarsDays'>;

/** 'Electric' or 'Hybrid' from the simple fuel value (plug-in hybrids are hybrids). */
export function fuelTypeTag(simpleFuel: string | null): string | null {
  const fuel = (simpleFuel ?? '').toLowerCase();
  if (fuel.includes('hybrid')) return STOCK_MESSAGES.hybrid;
  if (fuel.includes('electric')) return STOCK_MESSAGES.electric;
  return null;
}

export function isJustArrived(car: Pick<CarSummary, 'createdAtTimestamp'>, config: Pick<WebsiteConfig, 'specifications'>, now: number): boolean {
  const days = config.specifications.justArrivedDays;
  return days > 0 && now - car.createdAtTimestamp <= days * DAY_MS;
}

/**
 * The one banner on a car (SPEC §4): a recently sold car shows the sold tag ('JUST SOLD' by
 * default; §4 says sold cars show it, so it outranks the rest). Otherwise, in priority order:
 * electric or hybrid (where config.search.fuelTypeTag), reserved, certified, the car's own tag,
 * coming soon, just arrived (created within justArrivedDays); otherwise nothing.
 */
export function tagBanner(car: TagCar, config: TagConfig, now: number): TagBanner | null {
  if (car.status === 'sold') {
    return isRecentlySold(car, config, now) ? { kind: 'sold', label: config.specifications.soldTagName } : null;
  }
  if (config.search.fuelTypeTag) {
    const fuel = fuelTypeTag(car.simpleFuel);
    if (fuel) return { kind: 'fuel', label: fuel };
  }
  if (car.reserved) return { kind: 'reserved', label: STOCK_MESSAGES.reserved };
  if (car.certified) return { kind: 'certified', label: STOCK_MESSAGES.certified };
  const tag = car.tag?.trim();
  if (tag) return { kind: 'custom', label: tag };
  if (car.status === 'coming_soon') return { kind: 'coming_soon', label: STOCK_MESSAGES.comingSoon };
  if (isJustArrived(car, config, now)) return { kind: 'just_arrived', label: config.specifications.justArrivedTagName };
  return null;
}

/** The condition word: 'used' shows as the website's usedConditionLabel (e.g. 'pre-owned'). */
export function conditionLabel(carType: CarType, config: Pick<WebsiteConfig, 'usedConditionLabel'>): string {
  return carType === 'used' ? config.usedConditionLabel : carType;
}

const STOCK_NOUNS = ['cars', 'trucks', 'motorcycles', 'campers', 'caravans', 'vehicles'];

/**
 * What the website's stock is called: its vehicle path (motorcycles, campers) or, on a 'cars'
 * website, the last word of its default search slug when that is a vehicle word
 * (new-used-and-demo-trucks → trucks). Singular for a count of one.
 */
export function vehicleNoun(config: Pick<WebsiteConfig, 'vehiclePath' | 'search'>, count = 2): string {
  const last = config.search.defaultSlug.split('-').at(-1) ?? '';
  const plural = config.vehiclePath === 'cars' && STOCK_NOUNS.includes(last) ? last : config.vehiclePath;
  return count === 1 ? plural.slice(0, -1) : plural;
}

export function statusLabel(status: CarStatus): string {
  return status === 'in_stock' ? 'In stock' : status === 'coming_soon' ? STOCK_MESSAGES.comingSoon : 'Sold';
}

/** Search slug segments that preset the car type (SPEC §2): used-cars, new-cars, demo-cars. */
export function carTypeFromSearchSlug(slug: string): CarType | null {
  const match = /^(new|used|demo)-cars$/.exec(slug);
  return match ? (match[1] as CarType) : null;
}
