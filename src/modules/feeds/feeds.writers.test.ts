import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { websiteConfigSchema } from '@/modules/tenancy/tenancy.config';
import { checkRecords, GOOGLE_FIELDS, META_FIELDS, readGoogleXml, readMetaCsv } from '../../../tests/support/feed-specs';
import { parseXml } from '../../../tests/support/xml-wellformed';
import { GOOGLE_TAIL, googleHead, googleItem } from './feeds.google';
import { metaHeader, metaRecord } from './feeds.meta';
import { cleanLine, cleanText, csvField } from './feeds.text';
import type { FeedCar, FeedContext, FeedDealer } from './feeds.types';

const dealer: FeedDealer = {
  dealerId: 'harbour-city-mazda',
  dealerName: 'Harbour City Mazda',
  phone: '(02) 5550 4101',
  locationSlug: 'parramatta',
  street: '412 Church Street',
  city: 'Parramatta',
  state: 'NSW',
  postcode: '2150',
  country: 'AU',
  lat: -33.8,
  long: 151,
};

function context(overrides: Partial<Parameters<typeof websiteConfigSchema.parse>[0]> = {}, site: Partial<FeedDealer> = {}): FeedContext {
  const origin = new URL('https://harbour-city-motors.example');
  return {
    origin,
    siteName: 'Harbour City <Motors> & "Co"',
    config: websiteConfigSchema.parse(overrides),
    carUrl: (slug) => `${origin.origin}/cars/${slug}`,
    dealerFor: () => ({ ...dealer, ...site }),
  };
}

const car: FeedCar = {
  id: 42,
  slug: '2021-toyota-hilux-sr5-42',
  name: '2021 Toyota Hilux SR5',
  make: 'Toyota',
  model: 'Hilux',
  badge: 'SR5',
  series: null,
  year: 2021,
  km: 160_934,
  price: 45990,
  carType: 'used',
  status: 'in_stock',
  itemType: 'car',
  certified: true,
  vin: 'MR0FA3CD100123456',
  colour: 'White',
  simpleFuel: 'Diesel',
  simpleBody: 'Ute',
  simpleDrive: 'Four Wheel Drive',
  simpleTransmission: 'Automatic',
  description: 'One owner.',
  stocknum: 'A1',
  createdAt: new Date('2026-11-01T00:00:00Z'),
  dealershipId: 1,
  locationId: 1,
  images: ['/media/cars/a.jpg', 'https://cdn.example.com/b.jpg?w=1&h=2', 'javascript:alert(1)'],
};

const hostile: FeedCar = {
  ...car,
  name: '2021 "Hilux", <SR5> & Co\u0000\u0007',
  make: 'Toy,ota\r\n"',
  model: ']]></g:model>',
  description: 'a,"b"\r\nc & <d>\u0000\u001b\uD800 e\n\n\n\nf',
  colour: 'Red\u0000, "blue"',
};

describe('text rules', () => {
  it('removes what XML cannot carry and a CSV reader trips on, and keeps line breaks in long text', () => {
    expect(cleanText('a\u0000b\u0008c\u000bd\u001fe\u007ff\uFFFEg\uD800h\r\ni\rj')).toBe('abcdefgh\ni\nj');
    expect(cleanLine(' a \t b\r\nc\u0000 ')).toBe('a b c');
    expect(cleanText('😀😀😀', 3)).toBe('😀');
  });

  it('quotes a CSV field only when it needs it, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(' padded')).toBe('" padded"');
  });
});

describe('Meta catalogue CSV', () => {
  it('writes every required field valid, in kilometres for an AU site, with absolute image URLs', () => {
    const text = metaHeader() + metaRecord(car, context());
    const { records } = readMetaCsv(text);
    expect(checkRecords(records, META_FIELDS)).toEqual([]);
    const [row] = records;
    expect(row['mileage.value']).toEqual(['160934']);
    expect(row['mileage.unit']).toEqual(['KM']);
    expect(row.price).toEqual(['45990 AUD']);
    expect(row.state_of_vehicle).toEqual(['CPO']);
    expect(row.body_style).toEqual(['PICKUP']);
    expect(row.drivetrain).toEqual(['FOUR_WD']);
    expect(row['image[0].url']).toEqual(['https://harbour-city-motors.example/media/cars/a.jpg']);
    expect(row['image[1].url']).toEqual(['https://cdn.example.com/b.jpg?w=1&h=2']);
    // A javascript: URL is no image.
    expect(row['image[2].url']).toEqual(['']);
  });

  it('writes miles and the website currency for a US site', () => {
    const { records } = readMetaCsv(metaHeader() + metaRecord(car, context({ locale: 'en-US', currency: 'USD', distanceUnit: 'mi' })));
    expect(records[0]['mileage.value']).toEqual(['100000']);
    expect(records[0]['mileage.unit']).toEqual(['MI']);
    expect(records[0].price).toEqual(['45990 USD']);
  });

  it('survives hostile text: the CSV parses back to the same columns and the cleaned values', () => {
    const text = metaHeader() + metaRecord(hostile, context()) + metaRecord(car, context());
    expect(text).not.toMatch(/[\u0000\u0007\u001b]/);
    const rows: string[][] = parse(text);
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toHaveLength(META_FIELDS.length);
    const { records } = readMetaCsv(text);
    expect(records[0].title).toEqual(['2021 "Hilux", <SR5> & Co']);
    expect(records[0].make).toEqual(['Toy,ota "']);
    expect(records[0].description).toEqual(['a,"b"\nc & <d> e\n\nf']);
    expect(records[0].exterior_color).toEqual(['Red, "blue"']);
    expect(records[1].vehicle_id).toEqual(['42']);
  });
});

describe('Google vehicle ads XML', () => {
  it('writes a well-formed RSS feed with every required attribute valid', () => {
    const c = context({ feeds: { google: { storeCodes: { parramatta: 'GBP 77' } } } });
    const { errors, records, fulfillment } = readGoogleXml(googleHead(c) + googleItem(car, c) + GOOGLE_TAIL);
    expect(errors).toEqual([]);
    expect(checkRecords(records, GOOGLE_FIELDS)).toEqual([]);
    expect(records[0].mileage).toEqual(['160934 km']);
    expect(records[0].condition).toEqual(['used']);
    expect(records[0]['certified_pre-owned']).toEqual(['yes']);
    expect(records[0].store_code).toEqual(['GBP 77']);
    expect(fulfillment[0]).toEqual({ option: 'in_store', store_code: 'GBP 77' });
    expect(records[0].additional_image_link).toEqual(['https://cdn.example.com/b.jpg?w=1&h=2']);
  });

  it('escapes hostile text so the file stays well-formed and reads back as the cleaned text', () => {
    const c = context({}, { street: '1 <Main> & "High" St\u0000' });
    const xml = googleHead(c) + googleItem(hostile, c) + googleItem(car, c) + GOOGLE_TAIL;
    const { errors, records } = readGoogleXml(xml);
    expect(errors).toEqual([]);
    expect(records).toHaveLength(2);
    expect(records[0].title).toEqual(['2021 "Hilux", <SR5> & Co']);
    expect(records[0].model).toEqual([']]></g:model>']);
    expect(records[0].description).toEqual(['a,"b"\nc & <d> e\n\nf']);
    expect(records[0].dealership_address).toEqual(['1 <Main> & "High" St, Parramatta, NSW 2150, AU']);
    expect(parseXml(xml).root?.children[0].children[0].text).toBe('Harbour City <Motors> & "Co" vehicles');
  });

  it('the well-formedness check refuses what a broken writer would produce', () => {
    const head = '<?xml version="1.0" encoding="UTF-8"?>\n';
    for (const bad of [
      `${head}<rss><a>x & y</a></rss>`,
      `${head}<rss><a>x < y</a></rss>`,
      `${head}<rss><a>nul\u0000</a></rss>`,
      `${head}<rss><a>&#0;</a></rss>`,
      `${head}<rss><a></b></rss>`,
      `${head}<rss></rss><rss></rss>`,
      `<rss></rss>`,
    ]) {
      expect(parseXml(bad).errors.length, bad).toBeGreaterThan(0);
    }
  });
});
