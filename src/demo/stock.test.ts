import { describe, expect, it } from 'vitest';
import { websiteConfigSchema } from '@/modules/tenancy/tenancy.config';
import { DEMO_SITES } from './sites';
import { ANGLES, CURRENT_MODEL_YEAR, generateStock, makeVin, photoKey, TAGS, vinCheckDigitValid } from './stock';
import { Random } from './random';

const NOW = new Date('2026-11-21T09:00:00Z');
const DAY = 86_400_000;
const stocks = DEMO_SITES.map((site) => ({ site, stock: generateStock(site, NOW) }));
const allCars = stocks.flatMap((s) => s.stock.cars);

describe('demo stock generation', () => {
  it('is the same on every run for the same moment', () => {
    const again = generateStock(DEMO_SITES[0], NOW);
    expect(again.cars).toEqual(stocks[0].stock.cars);
    expect(again.images).toEqual(stocks[0].stock.images);
  });

  it('moves only the recent dates with the seeding time', () => {
    const later = new Date(NOW.getTime() + 10 * DAY);
    const shifted = generateStock(DEMO_SITES[1], later).cars;
    const original = stocks[1].stock.cars;
    const strip = (c: (typeof original)[number]) => ({ ...c, createdAt: null, updatedAt: null, soldDate: null });
    expect(shifted.map(strip)).toEqual(original.map(strip));
    expect(shifted[0].createdAt!.getTime() - original[0].createdAt!.getTime()).toBe(10 * DAY);
  });

  it('makes at least 1,500 vehicles, harbour-city-motors the most', () => {
    expect(allCars.length).toBeGreaterThanOrEqual(1500);
    const counts = stocks.map((s) => s.stock.cars.length);
    expect(Math.max(...counts)).toBe(stocks.find((s) => s.site.slug === 'harbour-city-motors')!.stock.cars.length);
  });

  it('gives every car a unique id, slug and stock number within its website, and valid slugs', () => {
    expect(new Set(allCars.map((c) => c.id)).size).toBe(allCars.length);
    for (const { site, stock } of stocks) {
      expect(new Set(stock.cars.map((c) => c.slug)).size).toBe(stock.cars.length);
      expect(new Set(stock.cars.map((c) => c.stocknum)).size).toBe(stock.cars.length);
      for (const car of stock.cars) {
        expect(car.slug).toMatch(/^[a-z0-9-]+$/);
        expect(car.id).toBeGreaterThan(site.id * 100_000);
        expect(car.id).toBeLessThan((site.id + 1) * 100_000);
      }
    }
    expect(allCars.some((c) => /^[A-Z]{3}\d{4}[A-Z]$/.test(c.stocknum!))).toBe(true);
  });

  it('places every car at a stock-holding location of its own dealership and website, with its city and state', () => {
    for (const { site, stock } of stocks) {
      for (const car of stock.cars) {
        const location = site.locations.find((l) => l.id === car.locationId)!;
        expect(location, car.slug).toBeDefined();
        expect(location.dealershipId).toBe(car.dealershipId);
        expect(location.holdsStock && location.visible).toBe(true);
        expect([car.city, car.state]).toEqual([location.city, location.state]);
      }
    }
  });

  it('covers every status, with recent and long-ago sold dates', () => {
    for (const { stock } of stocks) {
      const statuses = new Set(stock.cars.map((c) => c.status));
      expect(statuses).toEqual(new Set(['in_stock', 'coming_soon', 'sold']));
      const soldAges = stock.cars.filter((c) => c.status === 'sold').map((c) => (NOW.getTime() - c.soldDate!.getTime()) / DAY);
      expect(soldAges.some((d) => d >= 1 && d <= 3)).toBe(true);
      expect(soldAges.some((d) => d > 3 && d <= 5)).toBe(true);
      expect(soldAges.some((d) => d > 10)).toBe(true);
      for (const car of stock.cars) {
        expect(car.soldDate === null).toBe(car.status !== 'sold');
        if (car.soldDate) expect(car.createdAt!.getTime()).toBeLessThan(car.soldDate.getTime());
      }
    }
  });

  it('spreads arrivals over 120 days with some in the last 8', () => {
    for (const { stock } of stocks) {
      const ages = stock.cars.filter((c) => c.status !== 'sold').map((c) => (NOW.getTime() - c.createdAt!.getTime()) / DAY);
      expect(Math.min(...ages)).toBeGreaterThan(0);
      expect(Math.max(...ages)).toBeLessThanOrEqual(120);
      expect(ages.filter((d) => d < 8).length).toBeGreaterThan(0);
    }
  });

  it('covers the display rules: tags, pre-order, low prices, hidden, not reservable, reserved, certified', () => {
    const tags = new Set(allCars.map((c) => c.tag));
    for (const tag of Object.values(TAGS)) expect(tags).toContain(tag);
    expect(allCars.some((c) => c.preorder && c.tag === TAGS.preorder && c.price! <= 10)).toBe(true);
    for (const { stock } of stocks) {
      expect(stock.cars.some((c) => c.price! <= 10)).toBe(true);
      expect(stock.cars.some((c) => c.price! > 10 && c.price! <= 200)).toBe(true);
      expect(stock.cars.some((c) => c.showOnDealerWebsite === false)).toBe(true);
      expect(stock.cars.some((c) => c.reservable === false)).toBe(true);
      expect(stock.cars.some((c) => c.reserved)).toBe(true);
      expect(stock.cars.some((c) => c.certified)).toBe(true);
      expect(stock.cars.some((c) => c.beforePrice != null && c.beforePrice > c.price!)).toBe(true);
      for (const car of stock.cars) {
        expect(Number.isInteger(car.price)).toBe(true);
        expect(car.price).toBeGreaterThanOrEqual(0);
        expect(car.preorder).toBe(car.tag === TAGS.preorder);
      }
    }
  });

  it('prices some Australian used cars more than $499 under the market average', () => {
    const below = allCars.filter((c) => c.autograbAverageMarketPrice != null && c.autograbAverageMarketPrice - c.price! > 499);
    const above = allCars.filter((c) => c.autograbAverageMarketPrice != null && c.autograbAverageMarketPrice - c.price! <= 499);
    expect(below.length).toBeGreaterThan(0);
    expect(above.length).toBeGreaterThan(0);
    expect(below.every((c) => c.carType === 'used')).toBe(true);
  });

  it('gives subscriptions only where the website offers them, and payment processors where checkout is on', () => {
    for (const { site, stock } of stocks) {
      const config = websiteConfigSchema.parse(site.config);
      expect(stock.cars.some((c) => c.subscriptionPrice != null)).toBe(config.offersSubscription);
      expect(stock.processors.length > 0).toBe(config.checkout.enabled);
      for (const processor of stock.processors) {
        expect(processor.authorizationType).toBe(config.checkout.paymentProvider);
        expect(processor.authorizationKey).toBeTruthy();
        if (processor.authorizationType === 'Stripe') {
          expect(processor.authorizationKey).toMatch(/^pk_test_/);
          expect(processor.depositAmount).toBe(500);
        }
      }
    }
  });

  it('attaches 3 to 12 photos, except unphotographed coming-soon cars and a few thin listings where a photo minimum applies', () => {
    for (const { site, stock } of stocks) {
      const minPhotos = websiteConfigSchema.parse(site.config).search.defaultFilters.minPhotos;
      const byCar = new Map<number, number>();
      for (const image of stock.images) byCar.set(image.carId, (byCar.get(image.carId) ?? 0) + 1);
      for (const car of stock.cars) {
        const count = byCar.get(car.id) ?? 0;
        expect(count).toBe(car.photosCount);
        if (count === 0) expect(car.status).toBe('coming_soon');
        else if (count < 3) expect(minPhotos).toBe(3);
        expect(count).toBeLessThanOrEqual(12);
        expect(car.primaryImageUrl ?? null).toBe(count > 0 ? stock.images.find((i) => i.carId === car.id && i.position === 0)!.url : null);
      }
      if (minPhotos) expect(stock.cars.some((c) => c.photosCount! > 0 && c.photosCount! < minPhotos)).toBe(true);
    }
  });

  it('shares one photo file between cars of the same type, make, model, colour and angle', () => {
    const images = allCars.length;
    const keys = new Set(stocks.flatMap((s) => s.stock.images.map((i) => i.url)));
    expect(keys.size).toBeLessThan(stocks.reduce((n, s) => n + s.stock.images.length, 0));
    expect(images).toBeGreaterThan(0);
    const spec = { itemType: 'car' as const, make: 'Toyota', model: 'HiLux', colour: 'White', angle: 'Side' };
    expect(photoKey(spec)).toBe(photoKey({ ...spec }));
    expect(photoKey(spec)).not.toBe(photoKey({ ...spec, angle: 'Rear' }));
    expect(photoKey(spec)).toMatch(/^cars\/[0-9a-f]{20}\.jpg$/);
    for (const { stock } of stocks) {
      for (const image of stock.images) {
        expect(image.url).toMatch(/^\/media\/cars\/[0-9a-f]{20}\.jpg$/);
        expect([image.width, image.height]).toEqual([960, 640]);
        const car = stock.cars.find((c) => c.id === image.carId)!;
        expect(image.alt).toBe(`${car.name} – ${ANGLES[car.itemType!][image.position!].toLowerCase()}`);
      }
    }
  });

  it('writes valid VINs and keeps the odometer in kilometres on the US site', () => {
    const rng = new Random('vin');
    for (let i = 0; i < 50; i++) expect(vinCheckDigitValid(makeVin(rng, 'Ford', 2019))).toBe(true);
    expect(vinCheckDigitValid('1M8GDM9AXKP042788')).toBe(true); // the textbook example
    expect(vinCheckDigitValid('1M8GDM9A1KP042788')).toBe(false);
    for (const car of allCars) if (car.vin) expect(vinCheckDigitValid(car.vin), car.vin).toBe(true);
    const us = stocks.find((s) => s.site.slug === 'lone-star-auto')!.stock.cars;
    const usedUs = us.find((c) => c.carType === 'used' && c.km! > 10_000)!;
    const miles = Math.round(usedUs.km! / 1.609344);
    expect(usedUs.description).toContain(`${miles.toLocaleString('en-US')} miles`);
  });

  it('names cars "year make model badge" with sensible years per car type', () => {
    for (const car of allCars) {
      expect(car.name).toBe(`${car.year} ${car.make} ${car.model} ${car.badge}`);
      if (car.carType === 'new') expect(car.year).toBeGreaterThanOrEqual(CURRENT_MODEL_YEAR - 1);
      expect(car.year).toBeLessThanOrEqual(CURRENT_MODEL_YEAR);
      expect(car.year).toBeGreaterThanOrEqual(2012);
    }
    const skoda = stocks.find((s) => s.site.slug === 'southern-cross-skoda')!.stock.cars;
    expect(skoda.filter((c) => c.carType !== 'used').every((c) => c.make === 'ŠKODA')).toBe(true);
    expect(skoda.some((c) => c.make !== 'ŠKODA')).toBe(true);
  });

  it('stocks each site with its kind of vehicle', () => {
    const itemTypes = (slug: string) => new Set(stocks.find((s) => s.site.slug === slug)!.stock.cars.map((c) => c.itemType));
    expect(itemTypes('outback-trucks')).toEqual(new Set(['truck']));
    expect(itemTypes('coastline-motorcycles')).toEqual(new Set(['motorcycle']));
    expect(itemTypes('wanderer-rv')).toEqual(new Set(['caravan', 'campervan']));
    expect(itemTypes('harbour-city-motors')).toEqual(new Set(['car']));
    const harbourTypes = new Set(stocks[0].stock.cars.map((c) => c.carType));
    expect(harbourTypes).toEqual(new Set(['new', 'used', 'demo']));
  });
});
