import { describe, expect, it } from 'vitest';
import { carInputSchema, carSlugSchema, csvRecordToInput, fieldErrors, stockImportRowSchema, defaultCarName, effectiveStatus, normaliseImages } from './stock.validation';

const minimal = { make: 'Toyota', model: 'Corolla', year: 2021, car_type: 'used' };

describe('carInputSchema', () => {
  it('fills defaults for a minimal car', () => {
    const car = carInputSchema.parse(minimal);
    expect(car).toMatchObject({ km: 0, price: 0, status: 'in_stock', item_type: 'car', show_on_dealer_website: true, images: [], payment_processors: [] });
  });

  it('accepts the year up to two years ahead and no further', () => {
    const year = new Date().getUTCFullYear();
    expect(carInputSchema.safeParse({ ...minimal, year: year + 2 }).success).toBe(true);
    expect(fieldErrors(carInputSchema.safeParse({ ...minimal, year: year + 3 }).error!)).toEqual({ year: 'must not be more than 2 years ahead' });
  });

  it('trims text and accepts unicode', () => {
    expect(carInputSchema.parse({ ...minimal, name: '  Škoda 東京 🚗  ' }).name).toBe('Škoda 東京 🚗');
  });

  it('lets description hold line breaks but not other fields', () => {
    expect(carInputSchema.safeParse({ ...minimal, description: 'a\nb\tc' }).success).toBe(true);
    expect(fieldErrors(carInputSchema.safeParse({ ...minimal, name: 'a\nb' }).error!)).toHaveProperty('name');
  });

  it('accepts http(s) URLs and site paths for images, nothing else', () => {
    const ok = carInputSchema.parse({ ...minimal, images: ['https://a.example/1.jpg', 'http://a.example/2.jpg', '/media/3.jpg'] });
    expect(ok.images).toHaveLength(3);
    for (const bad of ['ftp://a.example/x.jpg', 'javascript:alert(1)', '//evil.example/x', 'https://a.example/x y.jpg', 'relative/x.jpg', 'https://']) {
      expect(carInputSchema.safeParse({ ...minimal, images: [bad] }).success, bad).toBe(false);
    }
  });

  it('makes sold and status agree', () => {
    expect(effectiveStatus(carInputSchema.parse({ ...minimal, sold: true }))).toBe('sold');
    expect(effectiveStatus(carInputSchema.parse({ ...minimal, status: 'sold' }))).toBe('sold');
    expect(effectiveStatus(carInputSchema.parse({ ...minimal, status: 'coming_soon', sold: false }))).toBe('coming_soon');
    expect(fieldErrors(carInputSchema.safeParse({ ...minimal, status: 'coming_soon', sold: true }).error!)).toHaveProperty('sold');
  });

  it('names nested fields by their path', () => {
    const result = carInputSchema.safeParse({ ...minimal, payment_processors: [{ authorization_type: 'stripe' }, { authorization_type: '', deposit_amount: -1 }] });
    expect(fieldErrors(result.error!)).toEqual({
      'payment_processors.1.authorization_type': 'is required',
      'payment_processors.1.deposit_amount': 'must be at least 0',
    });
  });

  it('needs a valid slug in import rows', () => {
    expect(stockImportRowSchema.safeParse({ ...minimal, slug: 'ok-slug_1' }).success).toBe(true);
    expect(fieldErrors(stockImportRowSchema.safeParse({ ...minimal }).error!)).toHaveProperty('slug');
    for (const bad of ['a b', 'a.b', 'a/b', 'ä', '', "x'--"]) expect(carSlugSchema.safeParse(bad).success, bad).toBe(false);
  });
});

describe('helpers', () => {
  it('normalises the three image shapes', () => {
    expect(
      normaliseImages(['https://a/1.jpg', { url: 'https://a/2.jpg', thumbnail_url: 'https://a/2t.jpg', alt: 'side' }, { image: { url: 'https://a/3.jpg' } }]),
    ).toEqual([
      { url: 'https://a/1.jpg', thumbnailUrl: null, alt: '' },
      { url: 'https://a/2.jpg', thumbnailUrl: 'https://a/2t.jpg', alt: 'side' },
      { url: 'https://a/3.jpg', thumbnailUrl: null, alt: '' },
    ]);
  });

  it('names a car from year, make, model and badge', () => {
    expect(defaultCarName({ year: 2021, make: 'Toyota', model: 'Corolla', badge: null })).toBe('2021 Toyota Corolla');
  });
});

describe('csvRecordToInput', () => {
  it('converts cells to the JSON the schema reads', () => {
    expect(
      csvRecordToInput({
        slug: ' a-car ',
        year: '2021',
        price: '',
        km: '12,000',
        certified: 'Yes',
        reservable: 'no',
        preorder: 'perhaps',
        images: 'https://a/1.jpg | https://a/2.jpg|',
        payment_processors: '[{"authorization_type":"stripe"}]',
        'autograb_data.average_market_price': '30000',
      }),
    ).toEqual({
      slug: 'a-car',
      year: 2021,
      km: '12,000',
      certified: true,
      reservable: false,
      preorder: 'perhaps',
      images: ['https://a/1.jpg', 'https://a/2.jpg'],
      payment_processors: [{ authorization_type: 'stripe' }],
      autograb_data: { average_market_price: 30000 },
    });
  });

  it('keeps an unreadable JSON cell as text (for the schema to name), even beside dotted columns', () => {
    const input = csvRecordToInput({ autograb_data: '{oops', 'autograb_data.state_average_market_price': '1', payment_processors: 'stripe' });
    expect(input).toEqual({ autograb_data: '{oops', payment_processors: 'stripe' });
    const errors = fieldErrors(carInputSchema.safeParse({ ...minimal, ...input }).error!);
    expect(Object.keys(errors).sort()).toEqual(['autograb_data', 'payment_processors']);
  });
});
