import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { formatMoney, spell } from '@/lib/format';
import type { CarDetail } from './stock.types';

/**
 * Car page rules (SPEC §2 car page actions, §5 eligibility, §9 constants). Pure and client-safe:
 * each takes the car and the website configuration, so every action's rule is unit-tested here and
 * the page only asks.
 */

/** SPEC §5/§9: reserve and price comparison need a price above this. */
export const MIN_RESERVE_PRICE = 200;
/** SPEC §9: the market indicator shows when the price is more than this below the market average. */
export const MARKET_PRICE_MARGIN = 499;
/** SPEC §9: the phone mask keeps the first 5 characters. */
export const PHONE_MASK_KEEP = 5;

export const CAR_PAGE_MESSAGES = {
  reserve: 'Reserve Car Now',
  /** The override template's label (SPEC §2). */
  reserveWithPrice: 'Reserve Now - {price}',
  buyOnline: 'Buy Online',
  enquire: 'Enquire Now',
  testDrive: 'Book a Test Drive',
  finance: 'Get Finance',
  tradeIn: 'Trade-in Valuation',
  /** The override template's sidebar label for the trade-in action (SPEC §2). */
  valuation: 'Get Your Valuation',
  whatsapp: 'WhatsApp',
  chat: 'Chat with us',
  chatbot: 'Open chatbot',
  historyReport: 'Car History Report',
  location: 'Vehicle Location',
  requestPhotos: 'Request Photos',
  callDealer: 'Call the dealer',
  showNumber: 'Show number',
  belowMarket: 'Below market price',
  sold: 'This vehicle has been sold',
} as const;

type ReserveCar = Pick<CarDetail, 'status' | 'reserved' | 'price' | 'reservable' | 'hasPaymentProcessor'>;
type ReserveConfig = Pick<WebsiteConfig, 'checkout'>;
type SaleCar = Pick<CarDetail, 'status' | 'reserved'>;

/**
 * Whether the car can be bought now: in stock (or coming soon where checkout.allowComingSoon) and
 * not reserved. The car's part of the reserve rule (SPEC §5); finance (the action, the estimate,
 * the popup, the /finance car and its landing) is offered on exactly these cars (decision 052).
 */
export function isForSale(car: SaleCar, config: ReserveConfig): boolean {
  const statusAllowed = car.status === 'in_stock' || (car.status === 'coming_soon' && config.checkout.allowComingSoon);
  return statusAllowed && !car.reserved;
}

/**
 * SPEC §5: reserve or online purchase only if the site has checkout enabled; the car is in stock
 * (or coming soon where checkout.allowComingSoon); not sold or reserved; price above 200;
 * reservable not false; and at least one payment processor has a key.
 */
export function canReserve(car: ReserveCar, config: ReserveConfig): boolean {
  return (
    config.checkout.enabled &&
    isForSale(car, config) &&
    car.price > MIN_RESERVE_PRICE &&
    car.reservable !== false &&
    car.hasPaymentProcessor
  );
}

/** Online purchase: the reserve rule, on websites that sell online (enableStore). */
export function canBuyOnline(car: ReserveCar, config: ReserveConfig & Pick<WebsiteConfig, 'enableStore'>): boolean {
  return config.enableStore && canReserve(car, config);
}

/** 'Reserve Car Now', or 'Reserve Now - $24,990' on the override template. */
export function reserveLabel(
  car: Pick<CarDetail, 'price'>,
  config: Pick<WebsiteConfig, 'locale' | 'currency' | 'distanceUnit'>,
  template: 'default' | 'override',
): string {
  return template === 'override'
    ? CAR_PAGE_MESSAGES.reserveWithPrice.replace('{price}', formatMoney(config, car.price))
    : CAR_PAGE_MESSAGES.reserve;
}

type ComparisonCar = Pick<CarDetail, 'status' | 'reserved' | 'price'>;

/** SPEC §5 price comparison: feature enabled, in stock, not sold, not reserved, price above 200. */
export function isPriceComparisonEligible(car: ComparisonCar, config: Pick<WebsiteConfig, 'carPage'>): boolean {
  return config.carPage.priceComparison && car.status === 'in_stock' && !car.reserved && car.price > MIN_RESERVE_PRICE;
}

export type MarketIndicator = {
  /** The average compared with: the state's where known, else the national one. */
  average: number;
  scope: 'state' | 'national';
  /** How far below the average the price is. */
  below: number;
};

/**
 * SPEC §9: the market price indicator shows when the price is more than 499 below the autograb
 * average (500 below shows, 499 does not). The state average is used where available.
 */
export function marketIndicator(
  car: ComparisonCar & Pick<CarDetail, 'marketAveragePrice' | 'stateMarketAveragePrice'>,
  config: Pick<WebsiteConfig, 'carPage'>,
): MarketIndicator | null {
  if (!isPriceComparisonEligible(car, config)) return null;
  const state = car.stateMarketAveragePrice;
  const average = state != null && state > 0 ? state : car.marketAveragePrice;
  if (average == null || average <= 0) return null;
  const below = average - car.price;
  if (below <= MARKET_PRICE_MARGIN) return null;
  return { average, scope: average === state ? 'state' : 'national', below };
}

/**
 * SPEC §9: keep the first 5 characters, hide every later digit: '02 9555 0101' → '02 95XX XXXX'.
 * Spaces and punctuation stay, so the masked number keeps its shape.
 */
export function maskPhone(phone: string): string {
  const trimmed = phone.trim();
  return trimmed.slice(0, PHONE_MASK_KEEP) + trimmed.slice(PHONE_MASK_KEEP).replace(/\d/g, 'X');
}

type TradeInCar = Pick<CarDetail, 'carType' | 'status' | 'year'>;

/**
 * The trade-in valuation action (SPEC §5 leaves the criteria open; decision 009): the website
 * offers it (carPage.tradeIn.enabled), for this car type, for an unsold car, and, where
 * carPage.tradeIn.maxAgeYears is set, for a car at most that many years old in `year`.
 */
export function isTradeInEligible(car: TradeInCar, config: Pick<WebsiteConfig, 'carPage'>, year: number): boolean {
  const rule = config.carPage.tradeIn;
  if (!rule.enabled || car.status === 'sold') return false;
  if (!rule.carTypes.includes(car.carType)) return false;
  return rule.maxAgeYears == null || year - car.year <= rule.maxAgeYears;
}

/** SPEC §5: the history report action only when the car has a file. */
export function hasHistoryReport(car: Pick<CarDetail, 'historyReportUrl'>): boolean {
  return !!car.historyReportUrl?.trim();
}

/** wa.me link for the dealer's WhatsApp number with a message naming the car; null without a number. */
export function whatsappHref(number: string | null, car: Pick<CarDetail, 'name'>, pageUrl: string): string | null {
  const digits = (number ?? '').replace(/\D/g, '');
  if (digits.length < 6) return null;
  const text = `Hi, I'm interested in the ${car.name}: ${pageUrl}`;
  return `https://wa.me/${digits}?text=${encodeURIComponent(text)}`;
}

type LinkCar = Pick<CarDetail, 'id' | 'slug' | 'carType' | 'vin' | 'nvic' | 'year' | 'price' | 'dealershipSlug'>;

/**
 * SPEC §2 finance route with the car's query parameters and the #finance-form anchor. car_id is
 * the slug (a slug never holds '?', so nothing is dropped).
 */
export function financeHref(car: LinkCar): string {
  const query = new URLSearchParams();
  query.set('car_id', car.slug);
  query.set('car_type', car.carType);
  if (car.vin) query.set('vin', car.vin);
  if (car.nvic) query.set('nvic', car.nvic);
  query.set('year', String(car.year));
  if (car.price > 0) {
    query.set('price', String(car.price));
    query.set('vehiclePriceBudget', String(car.price));
  }
  if (car.dealershipSlug) query.set('preferredDealership', car.dealershipSlug);
  return `/finance?${query.toString()}#finance-form`;
}

/** Where each action goes until its form opens in place (SPEC §2 routes). */
export function actionHrefs(car: LinkCar, config: Pick<WebsiteConfig, 'vehiclePath' | 'usePagesPath'>) {
  const carQuery = `car_id=${encodeURIComponent(car.slug)}`;
  return {
    // The lead forms' own pages (the dialogs' fallback without JavaScript) take the car's id.
    enquire: `/enquire?car_id=${car.id}`,
    testDrive: `/book-test-drive?car_id=${car.id}`,
    requestPhotos: `/request-photos?car_id=${car.id}`,
    finance: financeHref(car),
    tradeIn: `/cars/trade-in?car_id=${car.id}`,
    reserve: `/${config.vehiclePath}/${car.slug}/checkout`,
    buyOnline: `/checkout-journey?${carQuery}`,
    chat: `/contact?${carQuery}#chat`,
    location: '#vehicle-map',
  };
}

/**
 * SPEC §3 ad event for a vehicle (content_ids, contents with quantity 1, currency, value,
 * content_type product, content_name), exposed on the page for the widgets to send.
 */
export function vehicleContentEvent(car: Pick<CarDetail, 'id' | 'name' | 'price'>, config: Pick<WebsiteConfig, 'currency'>) {
  const id = String(car.id);
  return {
    content_ids: [id],
    contents: [{ id, quantity: 1 }],
    currency: config.currency,
    value: car.price,
    content_type: 'product' as const,
    content_name: car.name,
  };
}

export type CarActionKind =
  | 'call'
  | 'enquire'
  | 'finance'
  | 'testDrive'
  | 'tradeIn'
  | 'whatsapp'
  | 'reserve'
  | 'buyOnline'
  | 'chat'
  | 'chatbot'
  | 'historyReport'
  | 'location'
  | 'requestPhotos';

export type CarAction = { kind: CarActionKind; label: string; href: string };

type ActionCar = LinkCar &
  ReserveCar &
  TradeInCar &
  Pick<CarDetail, 'name' | 'phone' | 'whatsappNumber' | 'historyReportUrl' | 'location'>;
type ActionConfig = Pick<
  WebsiteConfig,
  'checkout' | 'enableStore' | 'carPage' | 'vehiclePath' | 'usePagesPath' | 'locale' | 'currency' | 'distanceUnit'
>;

/**
 * Every action the car page offers, in page order, each only where its rule holds (SPEC §2 car
 * page actions). `context.chat`: which chat widgets the website runs (widgets' chatWidgets). The override template leads with its sidebar four: Enquire Now, Get Your
 * Valuation, Get Finance, Reserve Now - {price}.
 */
export function carActions(
  car: ActionCar,
  config: ActionConfig,
  template: 'default' | 'override',
  context: { year: number; pageUrl: string; chat: { chat: boolean; chatbot: boolean } },
): CarAction[] {
  const hrefs = actionHrefs(car, config);
  const actions: CarAction[] = [];
  const add = (kind: CarActionKind, label: string, href: string | null, when = true) => {
    if (when && href) actions.push({ kind, label: spell(config, label), href });
  };
  const reserve = canReserve(car, config);
  const tradeIn = isTradeInEligible(car, config, context.year);
  const tradeInLabel = template === 'override' ? CAR_PAGE_MESSAGES.valuation : CAR_PAGE_MESSAGES.tradeIn;

  if (template === 'override') {
    add('enquire', CAR_PAGE_MESSAGES.enquire, hrefs.enquire);
    add('tradeIn', tradeInLabel, hrefs.tradeIn, tradeIn);
    add('finance', CAR_PAGE_MESSAGES.finance, hrefs.finance, isForSale(car, config));
    add('reserve', reserveLabel(car, config, template), hrefs.reserve, reserve);
  } else {
    add('reserve', reserveLabel(car, config, template), hrefs.reserve, reserve);
    add('enquire', CAR_PAGE_MESSAGES.enquire, hrefs.enquire);
    add('finance', CAR_PAGE_MESSAGES.finance, hrefs.finance, isForSale(car, config));
  }
  add('buyOnline', CAR_PAGE_MESSAGES.buyOnline, hrefs.buyOnline, canBuyOnline(car, config));
  add('call', CAR_PAGE_MESSAGES.callDealer, car.phone ? `tel:${car.phone.replace(/[^\d+]/g, '')}` : null);
  add('testDrive', CAR_PAGE_MESSAGES.testDrive, hrefs.testDrive, car.status !== 'sold');
  if (template !== 'override') add('tradeIn', tradeInLabel, hrefs.tradeIn, tradeIn);
  add('whatsapp', CAR_PAGE_MESSAGES.whatsapp, whatsappHref(car.whatsappNumber, car, context.pageUrl));
  // Only where the website runs that widget (chatWidgets): a provider with its key.
  add('chat', CAR_PAGE_MESSAGES.chat, hrefs.chat, context.chat.chat);
  add('chatbot', CAR_PAGE_MESSAGES.chatbot, hrefs.chat, context.chat.chatbot);
  add('historyReport', CAR_PAGE_MESSAGES.historyReport, car.historyReportUrl, hasHistoryReport(car));
  add('location', CAR_PAGE_MESSAGES.location, hrefs.location, car.location != null);
  add('requestPhotos', CAR_PAGE_MESSAGES.requestPhotos, hrefs.requestPhotos, car.status !== 'sold');
  return actions;
}
