import { describe, expect, it } from 'vitest';
import { serializeCar, type CarRecord } from './stock.api';

function record(overrides: Partial<CarRecord['car']> = {}, extra: Partial<CarRecord> = {}): CarRecord {
  const created = new Date('2026-10-01T00:00:00Z');
  return {
    car: {
      id: 7, websiteId: 1, dealershipId: 2, locationId: 3, slug: 'car-7', name: 'Car', make: 'Toyota', model: 'Corolla', badge: null,
      series: null, year: 2021, km: 100, price: 20000, priceType: 'DAP', beforePrice: null, subscriptionPrice: null, carType: 'used',
      status: 'in_stock', itemType: 'car', stocknum: 'S7', vin: null, nvic: null, certified: false, reserved: false, soldDate: null,
      reservable: null, preorder: false, showOnDealerWebsite: true, photosCount: 2, tag: null, customRank: 0, colour: null, seats: null,
      doors: null, engine: null, simpleFuel: null, simpleBody: null, simpleDrive: null, simpleTransmission: null, description: '',
      categories: [], features: [], primaryImageUrl: null, historyReportUrl: null, carsalesSellerIdentifier: null, city: null, state: null,
      autograbAverageMarketPrice: null, autograbStateAverageMarketPrice: null, createdAt: created, updatedAt: created, searchText: 'toyota corolla',
      ...overrides,
    },
    dealershipSlug: 'dealer',
    location: { name: 'Yard', phone: '02 1234 5678', slug: 'yard' },
    images: [
      { id: 2, websiteId: 1, carId: 7, position: 1, url: 'https://a/2.jpg', thumbnailUrl: 'https://a/2t.jpg', width: null, height: null, alt: '' },
      { id: 1, websiteId: 1, carId: 7, position: 0, url: 'https://a/1.jpg', thumbnailUrl: null, width: null, height: null, alt: '' },
    ],
    paymentProcessors: [],
    ...extra,
  };
}

describe('serializeCar', () => {
  it('gives the SPEC §3 shape: images in position order, thumbnails, location, timestamps in ms', () => {
    const json = serializeCar(record());
    expect(json).toMatchObject({
      id: 7,
      slug: 'car-7',
      sold: false,
      sold_date_timestamp: null,
      created_at_timestamp: Date.parse('2026-10-01T00:00:00Z'),
      images: [{ image: { url: 'https://a/1.jpg' } }, { image: { url: 'https://a/2.jpg' } }],
      thumbnails: ['https://a/1.jpg', 'https://a/2t.jpg'],
      primary_image_url: 'https://a/1.jpg',
      dealership_slug: 'dealer',
      location: { name: 'Yard', phone: '02 1234 5678', slug: 'yard', distribution_locations: [] },
      has_checkout_payment_processor: false,
      autograb_data: null,
    });
  });

  it('derives sold, the sold timestamp, the checkout flag and autograb data', () => {
    const soldAt = new Date('2026-11-01T10:00:00Z');
    const json = serializeCar(
      record(
        { status: 'sold', soldDate: soldAt, autograbAverageMarketPrice: 21000 },
        {
          location: null,
          paymentProcessors: [
            { id: 1, websiteId: 1, carId: 7, authorizationType: 'stripe', authorizationKey: null, depositAmount: 0 },
            { id: 2, websiteId: 1, carId: 7, authorizationType: 'stripe', authorizationKey: 'pk_1', depositAmount: 500 },
          ],
        },
      ),
    );
    expect(json.sold).toBe(true);
    expect(json.sold_date_timestamp).toBe(soldAt.getTime());
    expect(json.has_checkout_payment_processor).toBe(true);
    expect(json.autograb_data).toEqual({ average_market_price: 21000, state_average_market_price: null });
    expect(json.location).toBeNull();
  });

  it('has no processor with a key: no checkout', () => {
    const json = serializeCar(record({}, { paymentProcessors: [{ id: 1, websiteId: 1, carId: 7, authorizationType: 'stripe', authorizationKey: '', depositAmount: 0 }] }));
    expect(json.has_checkout_payment_processor).toBe(false);
  });
});
