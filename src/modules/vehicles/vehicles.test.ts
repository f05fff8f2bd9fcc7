import { describe, expect, it } from 'vitest';
import { lookupFoundMessage } from './vehicles.messages';
import { checkVin, expectedCheckDigit, modelYearsOf, normaliseVin, VIN_MESSAGES } from './vin';
import { adjustedPrice, estimateFromComparables, ESTIMATE_RULES, type Comparable } from './vehicles.estimate';

describe('VIN', () => {
  it('computes the check digit of real North American VINs', () => {
    expect(expectedCheckDigit('1HGCM82633A004352')).toBe('3');
    expect(expectedCheckDigit('1M8GDM9AXKP042788')).toBe('X');
    // All ones: 1 × (8+7+6+5+4+3+2+10+0+9+8+7+6+5+4+3+2) = 89, 89 mod 11 = 1.
    expect(expectedCheckDigit('11111111111111111')).toBe('1');
  });

  it('refuses a North American VIN whose check digit is wrong, and bad characters or length anywhere', () => {
    expect(checkVin('1HGCM82634A004352')).toEqual({ ok: false, vin: '1HGCM82634A004352', message: VIN_MESSAGES.checkDigit });
    expect(checkVin('1HGCM8263OA004352')).toMatchObject({ ok: false, message: VIN_MESSAGES.format });
    expect(checkVin('1HGCM82633A00435')).toMatchObject({ ok: false, message: VIN_MESSAGES.format });
  });

  it('accepts Australian-delivered VINs from makers outside North America without a check digit', () => {
    // Toyota (Japan), Mazda (Japan), Hyundai (Korea), Ford Ranger (Thailand), Kia (Korea).
    for (const vin of ['JTMBFREV10D123456', 'JM0KF4W7A01123456', 'KMHJ381ABKU123456', 'MPBUMFF50PX123456', 'KNAPU81DMK7123456']) {
      expect(checkVin(vin), vin).toMatchObject({ ok: true, vin });
    }
  });

  it('reads spaces, dashes and lower case as the same VIN', () => {
    expect(normaliseVin(' 1hgcm8-2633a 004352 ')).toBe('1HGCM82633A004352');
    expect(checkVin('1hgcm82633a004352')).toMatchObject({ ok: true, checkDigit: 'valid' });
  });

  it('reads the model year code, newest first', () => {
    expect(modelYearsOf('1HGCM82633A004352', 2026)).toEqual([2003]);
    // 'K' is 1989 or 2019.
    expect(modelYearsOf('1M8GDM9AXKP042788', 2026)).toEqual([2019, 1989]);
    expect(modelYearsOf('1M8GDM9AXKP042788', 2018)).toEqual([1989]);
  });
});

describe('market estimate', () => {
  const subject = { year: 2020, km: 60_000, state: 'NSW' };
  const comparable = (price: number, over: Partial<Comparable> = {}): Comparable => ({ price, year: 2020, km: 60_000, state: 'NSW', ...over });

  it('brings a comparable to the subject’s year and kilometres', () => {
    expect(adjustedPrice(comparable(30_000), subject)).toBe(30_000);
    expect(adjustedPrice(comparable(30_000, { year: 2021 }), subject)).toBeCloseTo(30_000 * (1 - ESTIMATE_RULES.yearlyDepreciation));
    expect(adjustedPrice(comparable(30_000, { km: 40_000 }), subject)).toBeCloseTo(30_000 * 0.98);
    // The km factor is bounded: a comparable with 500,000 km fewer does not make the subject worthless.
    expect(adjustedPrice(comparable(30_000, { km: 0 }), { ...subject, km: 500_000 })).toBeCloseTo(30_000 * 0.6);
  });

  it('is not enough data with fewer than three comparables', () => {
    expect(estimateFromComparables(subject, [comparable(30_000), comparable(31_000)], 0.15)).toEqual({ ok: false, reason: 'not enough data', comparables: 2 });
    expect(estimateFromComparables(subject, [comparable(30_000), comparable(31_000), comparable(29_000, { year: 2016 })], 0.15)).toMatchObject({ ok: false });
  });

  it('gives a retail range, a trade-in range less the margin, and the state figure when there are enough', () => {
    const estimate = estimateFromComparables(subject, [comparable(28_000), comparable(30_000), comparable(32_000), comparable(31_000, { state: 'VIC' })], 0.15);
    expect(estimate).toEqual({
      ok: true,
      comparables: 4,
      retail: { low: 29_500, median: 30_500, high: 31_300 },
      tradeIn: { low: 25_100, median: 25_900, high: 26_600 },
      state: { low: 29_000, median: 30_000, high: 31_000, comparables: 3 },
    });
  });

  it('one outlier does not move the median far', () => {
    const normal = [29_000, 30_000, 31_000, 30_500, 29_500].map((p) => comparable(p));
    const withOutlier = estimateFromComparables(subject, [...normal, comparable(300_000)], 0.15);
    expect(withOutlier.ok && withOutlier.retail.median).toBeGreaterThanOrEqual(30_000);
    expect(withOutlier.ok && withOutlier.retail.median).toBeLessThanOrEqual(30_800);
  });

  it('will not extrapolate to kilometres far outside the comparables', () => {
    const comps = [comparable(30_000, { km: 50_000 }), comparable(30_000, { km: 60_000 }), comparable(30_000, { km: 70_000 })];
    expect(estimateFromComparables({ ...subject, km: 70_000 + ESTIMATE_RULES.kmReach }, comps, 0.15).ok).toBe(true);
    expect(estimateFromComparables({ ...subject, km: 70_001 + ESTIMATE_RULES.kmReach }, comps, 0.15)).toMatchObject({ ok: false, reason: 'not enough data' });
  });
});

describe('what a lookup that found the car says (issue 31)', () => {
  it('names exactly what is still missing', () => {
    expect(lookupFoundMessage('2019 Toyota', ['model'])).toBe('Found a 2019 Toyota. Please add the model.');
    expect(lookupFoundMessage('Toyota', ['model', 'year'])).toBe('Found a Toyota. Please add the model and year.');
    expect(lookupFoundMessage('2019', ['make', 'model'])).toBe('Found a 2019. Please add the make and model.');
    expect(lookupFoundMessage('2019 Toyota Corolla', [])).toBe('Found: 2019 Toyota Corolla. Please check the details below.');
  });
});
