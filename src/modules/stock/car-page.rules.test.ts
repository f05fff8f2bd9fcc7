import { describe, expect, it } from 'vitest';
import { parseWebsiteConfig, type WebsiteConfigInput } from '@/modules/tenancy/tenancy.config';
import { actionHrefs, carActions, financeHref, hasHistoryReport, isPriceComparisonEligible, isTradeInEligible, marketIndicator, maskPhone, reserveLabel, vehicleContentEvent, whatsappHref, canBuyOnline, canReserve, isForSale } from './car-page.rules';
import type { CarDetail } from './stock.types';

function car(overrides: Partial<CarDetail> = {}): CarDetail {
  return {
    id: 7,
    slug: 'mazda-cx5-2021-m7',
    name: '2021 Mazda CX-5 Maxx Sport',
    make: 'Mazda',
    model: 'CX-5',
    badge: 'Maxx Sport',
    series: null,
    year: 2021,
    km: 42_000,
    price: 32_990,
    priceType: 'Drive Away',
    beforePrice: null,
    subscriptionPrice: null,
    carType: 'used',
    status: 'in_stock',
    itemType: 'car',
    certified: false,
    reserved: false,
    preorder: false,
    showOnDealerWebsite: true,
    photosCount: 10,
    tag: null,
    simpleFuel: 'Petrol',
    simpleBody: 'SUV',
    simpleTransmission: 'Automatic',
    city: 'Sydney',
    state: 'NSW',
    createdAtTimestamp: 0,
    soldDateTimestamp: null,
    image: null,
    location: {
      name: 'Parramatta',
      slug: 'parramatta',
      city: 'Parramatta',
      phone: '02 9555 0101',
      street: '1 Church St',
      state: 'NSW',
      postcode: '2150',
      country: 'AU',
      lat: -33.8,
      long: 151.0,
    },
    stocknum: 'M7',
    vin: 'JM0KF4W7A00000001',
    colour: 'Red',
    seats: 5,
    doors: 5,
    engine: null,
    simpleDrive: 'FWD',
    description: '',
    features: [],
    images: [],
    dealershipId: 3,
    dealershipSlug: 'harbour-city-mazda',
    dealershipName: 'Harbour City Mazda',
    phone: '02 9555 0101',
    whatsappNumber: null,
    nvic: 'ABC123',
    reservable: null,
    hasPaymentProcessor: true,
    historyReportUrl: null,
    marketAveragePrice: null,
    stateMarketAveragePrice: null,
    priceChanges: [],
    ...overrides,
  };
}

const config = (input: WebsiteConfigInput = {}) => parseWebsiteConfig(input);
const checkout = config({ checkout: { enabled: true, paymentProvider: 'Stripe' } });

describe('canReserve (SPEC §5)', () => {
  it('offers reserve for an in-stock car above 200 with a keyed processor on a checkout site', () => {
    expect(canReserve(car(), checkout)).toBe(true);
  });

  it('needs checkout enabled on the site', () => {
    expect(canReserve(car(), config())).toBe(false);
  });

  it('needs a price above 200: 200 is refused, 201 offered', () => {
    expect(canReserve(car({ price: 200 }), checkout)).toBe(false);
    expect(canReserve(car({ price: 201 }), checkout)).toBe(true);
  });

  it('refuses sold and reserved cars', () => {
    expect(canReserve(car({ status: 'sold' }), checkout)).toBe(false);
    expect(canReserve(car({ reserved: true }), checkout)).toBe(false);
  });

  it('offers coming-soon cars only where the site allows it', () => {
    expect(canReserve(car({ status: 'coming_soon' }), checkout)).toBe(false);
    const allow = config({ checkout: { enabled: true, paymentProvider: 'Till', allowComingSoon: true } });
    expect(canReserve(car({ status: 'coming_soon' }), allow)).toBe(true);
    expect(canReserve(car({ status: 'sold' }), allow)).toBe(false);
  });

  it('is blocked only by reservable false, not by an unstated one', () => {
    expect(canReserve(car({ reservable: false }), checkout)).toBe(false);
    expect(canReserve(car({ reservable: null }), checkout)).toBe(true);
    expect(canReserve(car({ reservable: true }), checkout)).toBe(true);
  });

  it('needs a payment processor with a key', () => {
    expect(canReserve(car({ hasPaymentProcessor: false }), checkout)).toBe(false);
  });

  it('offers online purchase on the same rule where the site sells online', () => {
    expect(canBuyOnline(car(), checkout)).toBe(false);
    const store = config({ checkout: { enabled: true, paymentProvider: 'Stripe' }, enableStore: true });
    expect(canBuyOnline(car(), store)).toBe(true);
    expect(canBuyOnline(car({ price: 200 }), store)).toBe(false);
  });
});

describe('reserveLabel', () => {
  it("labels the override template 'Reserve Now - {price}'", () => {
    expect(reserveLabel(car({ price: 24_990 }), config(), 'override')).toBe('Reserve Now - $24,990');
    expect(reserveLabel(car(), config(), 'default')).toBe('Reserve Car Now');
  });
});

describe('marketIndicator (SPEC §5, §9)', () => {
  const compare = config({ carPage: { priceComparison: true } });

  it('shows at 500 below the average, not at 499', () => {
    expect(marketIndicator(car({ price: 30_000, marketAveragePrice: 30_500 }), compare)).toEqual({
      average: 30_500,
      scope: 'national',
      below: 500,
    });
    expect(marketIndicator(car({ price: 30_001, marketAveragePrice: 30_500 }), compare)).toBeNull();
  });

  it('uses the state average where available', () => {
    expect(marketIndicator(car({ price: 30_000, marketAveragePrice: 30_400, stateMarketAveragePrice: 31_000 }), compare)).toEqual({
      average: 31_000,
      scope: 'state',
      below: 1000,
    });
    expect(marketIndicator(car({ price: 30_000, marketAveragePrice: 32_000, stateMarketAveragePrice: 30_400 }), compare)).toBeNull();
    // A state average of 0 is no average: the national one is used.
    expect(marketIndicator(car({ price: 30_000, marketAveragePrice: 31_000, stateMarketAveragePrice: 0 }), compare)).toEqual({
      average: 31_000,
      scope: 'national',
      below: 1000,
    });
  });

  it('needs the feature, an in-stock unreserved car, a price above 200 and an average', () => {
    const cheap = { marketAveragePrice: 5_000 };
    expect(marketIndicator(car({ price: 30_000, marketAveragePrice: 40_000 }), config())).toBeNull();
    expect(marketIndicator(car({ price: 30_000, marketAveragePrice: 40_000, status: 'coming_soon' }), compare)).toBeNull();
    expect(marketIndicator(car({ price: 30_000, marketAveragePrice: 40_000, status: 'sold' }), compare)).toBeNull();
    expect(marketIndicator(car({ price: 30_000, marketAveragePrice: 40_000, reserved: true }), compare)).toBeNull();
    expect(marketIndicator(car({ price: 200, ...cheap }), compare)).toBeNull();
    expect(marketIndicator(car({ price: 201, ...cheap }), compare)?.below).toBe(4_799);
    expect(marketIndicator(car({ price: 30_000 }), compare)).toBeNull();
  });

  it('price comparison eligibility follows the same boundaries', () => {
    expect(isPriceComparisonEligible(car({ price: 200 }), compare)).toBe(false);
    expect(isPriceComparisonEligible(car({ price: 201 }), compare)).toBe(true);
  });
});

describe('maskPhone (SPEC §9)', () => {
  it('keeps the first 5 characters and hides later digits', () => {
    expect(maskPhone('02 9555 0101')).toBe('02 95XX XXXX');
    expect(maskPhone('+61491570156')).toBe('+6149XXXXXXX');
    expect(maskPhone('(555) 010-0199')).toBe('(555) XXX-XXXX');
    // Counted from the first character of the number, not from spaces before it.
    expect(maskPhone('  02 9555 0101 ')).toBe('02 95XX XXXX');
  });

  it('leaves a number of 5 characters or fewer as it is', () => {
    expect(maskPhone('13 13')).toBe('13 13');
    expect(maskPhone('')).toBe('');
  });
});

describe('isTradeInEligible (decision 009)', () => {
  it('is offered for every car type by default, never for a sold car', () => {
    for (const carType of ['new', 'used', 'demo'] as const) expect(isTradeInEligible(car({ carType }), config(), 2026)).toBe(true);
    expect(isTradeInEligible(car({ status: 'sold' }), config(), 2026)).toBe(false);
    expect(isTradeInEligible(car({ status: 'coming_soon' }), config(), 2026)).toBe(true);
  });

  it('follows the configured car types and switch', () => {
    const usedOnly = config({ carPage: { tradeIn: { carTypes: ['used'] } } });
    expect(isTradeInEligible(car({ carType: 'used' }), usedOnly, 2026)).toBe(true);
    expect(isTradeInEligible(car({ carType: 'new' }), usedOnly, 2026)).toBe(false);
    expect(isTradeInEligible(car(), config({ carPage: { tradeIn: { enabled: false } } }), 2026)).toBe(false);
  });

  it('honours the age limit inclusively', () => {
    const tenYears = config({ carPage: { tradeIn: { maxAgeYears: 10 } } });
    expect(isTradeInEligible(car({ year: 2016 }), tenYears, 2026)).toBe(true);
    expect(isTradeInEligible(car({ year: 2015 }), tenYears, 2026)).toBe(false);
  });
});

describe('links', () => {
  it('sends the car to finance with its query parameters and the form anchor', () => {
    const href = financeHref(car());
    expect(href.startsWith('/finance?')).toBe(true);
    expect(href.endsWith('#finance-form')).toBe(true);
    const query = new URL(href, 'http://x').searchParams;
    expect(Object.fromEntries(query)).toEqual({
      car_id: 'mazda-cx5-2021-m7',
      car_type: 'used',
      vin: 'JM0KF4W7A00000001',
      nvic: 'ABC123',
      year: '2021',
      price: '32990',
      vehiclePriceBudget: '32990',
      preferredDealership: 'harbour-city-mazda',
    });
    const bare = new URL(financeHref(car({ price: 0, vin: null, nvic: null, dealershipSlug: '' })), 'http://x').searchParams;
    expect(Object.fromEntries(bare)).toEqual({ car_id: 'mazda-cx5-2021-m7', car_type: 'used', year: '2021' });
  });

  it('links each form action to its SPEC §2 route', () => {
    const hrefs = actionHrefs(car(), config({ vehiclePath: 'motorcycles' }));
    expect(hrefs).toMatchObject({
      enquire: '/enquire?car_id=7',
      testDrive: '/book-test-drive?car_id=7',
      requestPhotos: '/request-photos?car_id=7',
      tradeIn: '/cars/trade-in?car_id=7',
      reserve: '/motorcycles/mazda-cx5-2021-m7/checkout',
      buyOnline: '/checkout-journey?car_id=mazda-cx5-2021-m7',
      location: '#vehicle-map',
    });
  });

  it('builds a WhatsApp link only from a real number', () => {
    expect(whatsappHref('+61 491 570 156', car(), 'https://x.test/cars/a')).toBe(
      `https://wa.me/61491570156?text=${encodeURIComponent("Hi, I'm interested in the 2021 Mazda CX-5 Maxx Sport: https://x.test/cars/a")}`,
    );
    expect(whatsappHref(null, car(), '')).toBeNull();
    expect(whatsappHref('  ', car(), '')).toBeNull();
  });

  it('needs at least 6 digits for a WhatsApp link (the code\'s own minimum; decision 009 says only "a number")', () => {
    expect(whatsappHref('+12 3456', car(), '')).toMatch(/^https:\/\/wa\.me\/123456\?text=/);
    expect(whatsappHref('+12 345', car(), '')).toBeNull();
  });

  it('shows the history report only when the car has a file', () => {
    expect(hasHistoryReport(car())).toBe(false);
    expect(hasHistoryReport(car({ historyReportUrl: ' ' }))).toBe(false);
    expect(hasHistoryReport(car({ historyReportUrl: '/media/report.pdf' }))).toBe(true);
  });
});

describe('carActions', () => {
  const context = { year: 2026, pageUrl: 'https://x.test/cars/mazda-cx5-2021-m7', chat: { chat: false, chatbot: false } };
  const kinds = (list: { kind: string }[]) => list.map((a) => a.kind);

  it('lists the default template actions, each only where its rule holds', () => {
    expect(kinds(carActions(car(), config(), 'default', context))).toEqual([
      'enquire',
      'finance',
      'call',
      'testDrive',
      'tradeIn',
      'location',
      'requestPhotos',
    ]);
    const full = car({ whatsappNumber: '+61491570156', historyReportUrl: '/media/r.pdf' });
    const site = config({ checkout: { enabled: true, paymentProvider: 'Stripe' }, enableStore: true, widgets: { chat: { provider: 'podium' } } });
    expect(kinds(carActions(full, site, 'default', { ...context, chat: { chat: true, chatbot: false } }))).toEqual([
      'reserve',
      'enquire',
      'finance',
      'buyOnline',
      'call',
      'testDrive',
      'tradeIn',
      'whatsapp',
      'chat',
      'historyReport',
      'location',
      'requestPhotos',
    ]);
  });

  it('offers chat and chatbot only where the page runs them, whatever the configuration names (issue 31)', () => {
    const named = config({ widgets: { chat: { provider: 'livechat' }, chatbot: { enabled: true } } });
    expect(kinds(carActions(car(), named, 'default', context))).not.toContain('chat');
    expect(kinds(carActions(car(), named, 'default', context))).not.toContain('chatbot');
    const both = carActions(car(), config(), 'default', { ...context, chat: { chat: true, chatbot: true } });
    expect(both.filter((a) => a.kind === 'chat' || a.kind === 'chatbot').map((a) => a.label)).toEqual(['Chat with us', 'Open chatbot']);
  });

  it('leads the override template with its sidebar four', () => {
    const site = config({ checkout: { enabled: true, paymentProvider: 'Till' } });
    const actions = carActions(car({ price: 24_990 }), site, 'override', context);
    expect(actions.slice(0, 4).map((a) => a.label)).toEqual(['Enquire Now', 'Get Your Valuation', 'Get Finance', 'Reserve Now - $24,990']);
    // The sidebar's valuation is the trade-in action, once; the rest follow in the default order.
    expect(kinds(actions)).toEqual(['enquire', 'tradeIn', 'finance', 'reserve', 'call', 'testDrive', 'location', 'requestPhotos']);
    const byDefault = carActions(car(), config(), 'default', context);
    expect(byDefault.find((a) => a.kind === 'tradeIn')?.label).toBe('Trade-in Valuation');
    // The dealer is called on the number's digits (and a leading +) only.
    expect(byDefault.find((a) => a.kind === 'call')?.href).toBe('tel:0295550101');
    expect(carActions(car({ phone: '+61 2 9555-0101' }), config(), 'default', context).find((a) => a.kind === 'call')?.href).toBe('tel:+61295550101');
    // No location, no 'Vehicle Location'.
    expect(kinds(carActions(car({ location: null }), config(), 'default', context))).not.toContain('location');
  });

  it('offers a sold car no reserve, test drive or photos, and no call without a number', () => {
    const sold = carActions(car({ status: 'sold', phone: '' }), checkout, 'default', context);
    expect(kinds(sold)).toEqual(['enquire', 'location']);
  });

  // Issue 31 item 8: finance follows the reserve rule's car part (decision 052).
  it('offers finance only on a car that can be bought: not sold, not reserved, coming soon only where the site sells those', () => {
    const finance = (c: CarDetail, site = config(), template: 'default' | 'override' = 'default') => kinds(carActions(c, site, template, context)).includes('finance');
    expect(finance(car())).toBe(true);
    expect(finance(car({ status: 'sold' }))).toBe(false);
    expect(finance(car({ reserved: true }))).toBe(false);
    expect(finance(car({ reserved: true }), config(), 'override')).toBe(false);
    expect(finance(car({ status: 'coming_soon' }))).toBe(false);
    expect(finance(car({ status: 'coming_soon' }), config({ checkout: { allowComingSoon: true } }))).toBe(true);
    expect(isForSale(car({ status: 'coming_soon', reserved: true }), config({ checkout: { allowComingSoon: true } }))).toBe(false);
  });
});

describe('vehicleContentEvent (SPEC §3 ad event)', () => {
  it('describes the car as one product', () => {
    expect(vehicleContentEvent(car(), config({ currency: 'NZD' }))).toEqual({
      content_ids: ['7'],
      contents: [{ id: '7', quantity: 1 }],
      currency: 'NZD',
      value: 32_990,
      content_type: 'product',
      content_name: '2021 Mazda CX-5 Maxx Sport',
    });
  });
});
