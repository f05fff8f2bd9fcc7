import { parse } from 'csv-parse/sync';
import { parseXml } from './xml-wellformed';

/**
 * The two platforms' field lists as data (decision 038), and readers that turn a feed back into
 * records, for tests. `required: true` is required by the platform for every item; 'when-known'
 * is required by the platform but our stock record may not hold it (the item is then refused by
 * the platform, not by us); false is optional. `valid` checks one value's format.
 */

export type FieldSpec = { name: string; required: true | 'when-known' | false; valid: (value: string) => boolean; repeated?: boolean };

const YEAR_NOW = new Date().getUTCFullYear();
const nonEmpty = (max: number) => (v: string) => v.trim().length > 0 && v.length <= max && v === v.trim();
const oneOf = (...values: string[]) => (v: string) => values.includes(v);
const httpUrl = (v: string) => {
  try {
    const url = new URL(v);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.toString() === v && !/\s/.test(v);
  } catch {
    return false;
  }
};
const year = (v: string) => /^\d{4}$/.test(v) && Number(v) >= 1900 && Number(v) <= YEAR_NOW + 2;
const price = (v: string) => /^\d+(\.\d{2})? (AUD|NZD|USD)$/.test(v) && Number(v.split(' ')[0]) > 0;
const vin = (v: string) => /^[A-HJ-NPR-Z0-9]{17}$/.test(v);
const decimal = (v: string) => /^-?\d+(\.\d+)?$/.test(v);

/** Meta automotive inventory ads: vehicle catalogue fields (Auto Ads reference; enums per the vehicles edge). */
export const META_FIELDS: FieldSpec[] = [
  { name: 'vehicle_id', required: true, valid: nonEmpty(100) },
  { name: 'title', required: true, valid: nonEmpty(500) },
  { name: 'description', required: true, valid: (v) => v.trim().length > 0 && v.length <= 5000 },
  { name: 'url', required: true, valid: httpUrl },
  { name: 'make', required: true, valid: nonEmpty(100) },
  { name: 'model', required: true, valid: nonEmpty(100) },
  { name: 'year', required: true, valid: year },
  { name: 'trim', required: false, valid: nonEmpty(100) },
  { name: 'mileage.value', required: true, valid: (v) => /^\d+$/.test(v) },
  { name: 'mileage.unit', required: true, valid: oneOf('KM', 'MI') },
  { name: 'image[0].url', required: true, valid: httpUrl },
  ...Array.from({ length: 9 }, (_, i) => ({ name: `image[${i + 1}].url`, required: false as const, valid: httpUrl })),
  { name: 'price', required: true, valid: price },
  { name: 'state_of_vehicle', required: true, valid: oneOf('NEW', 'USED', 'CPO') },
  { name: 'vehicle_type', required: false, valid: oneOf('BOAT', 'CAR_TRUCK', 'COMMERCIAL', 'MOTORCYCLE', 'OTHER', 'POWERSPORT', 'RV_CAMPER', 'TRAILER') },
  {
    name: 'body_style',
    required: true,
    valid: oneOf('CONVERTIBLE', 'COUPE', 'CROSSOVER', 'ESTATE', 'GRANDTOURER', 'HATCHBACK', 'MINIBUS', 'MINIVAN', 'MPV', 'PICKUP', 'ROADSTER', 'SALOON', 'SEDAN', 'SMALL_CAR', 'SPORTSCAR', 'SUPERCAR', 'SUPERMINI', 'SUV', 'TRUCK', 'VAN', 'WAGON', 'OTHER', 'NONE'),
  },
  { name: 'fuel_type', required: false, valid: oneOf('DIESEL', 'ELECTRIC', 'GASOLINE', 'FLEX', 'HYBRID', 'OTHER', 'PETROL', 'PLUGIN_HYBRID', 'NONE') },
  { name: 'transmission', required: false, valid: oneOf('AUTOMATIC', 'MANUAL', 'OTHER', 'NONE') },
  { name: 'drivetrain', required: false, valid: oneOf('TWO_WD', 'FOUR_WD', 'AWD', 'FWD', 'RWD', 'OTHER', 'NONE') },
  { name: 'exterior_color', required: 'when-known', valid: nonEmpty(100) },
  { name: 'vin', required: false, valid: vin },
  { name: 'availability', required: true, valid: oneOf('AVAILABLE', 'NOT_AVAILABLE', 'PENDING') },
  { name: 'date_first_on_lot', required: false, valid: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)) },
  { name: 'dealer_id', required: false, valid: nonEmpty(100) },
  { name: 'dealer_name', required: false, valid: nonEmpty(100) },
  { name: 'dealer_phone', required: false, valid: nonEmpty(50) },
  { name: 'address.addr1', required: true, valid: nonEmpty(200) },
  { name: 'address.city', required: true, valid: nonEmpty(100) },
  { name: 'address.region', required: true, valid: nonEmpty(100) },
  { name: 'address.postal_code', required: true, valid: nonEmpty(20) },
  { name: 'address.country', required: true, valid: oneOf('AU', 'NZ', 'US') },
  { name: 'latitude', required: false, valid: (v) => decimal(v) && Math.abs(Number(v)) <= 90 },
  { name: 'longitude', required: false, valid: (v) => decimal(v) && Math.abs(Number(v)) <= 180 },
];

/** Google Merchant Center vehicle ads attributes (g: namespace), with the vehicle listings dealer fields. */
export const GOOGLE_FIELDS: FieldSpec[] = [
  { name: 'id', required: true, valid: nonEmpty(50) },
  { name: 'title', required: true, valid: nonEmpty(150) },
  { name: 'description', required: true, valid: (v) => v.trim().length > 0 && v.length <= 5000 },
  { name: 'link', required: true, valid: httpUrl },
  { name: 'image_link', required: true, valid: httpUrl },
  { name: 'additional_image_link', required: false, valid: httpUrl, repeated: true },
  { name: 'price', required: true, valid: price },
  { name: 'condition', required: true, valid: oneOf('new', 'used') },
  { name: 'certified_pre-owned', required: false, valid: oneOf('yes', 'no') },
  { name: 'availability', required: true, valid: oneOf('in_stock', 'out_of_stock', 'preorder') },
  { name: 'google_product_category', required: true, valid: oneOf('916') },
  { name: 'brand', required: true, valid: nonEmpty(70) },
  { name: 'model', required: true, valid: nonEmpty(70) },
  { name: 'year', required: true, valid: year },
  { name: 'trim', required: false, valid: nonEmpty(100) },
  { name: 'mileage', required: true, valid: (v) => /^\d+ (km|miles)$/.test(v) },
  { name: 'vin', required: true, valid: vin },
  { name: 'color', required: 'when-known', valid: nonEmpty(100) },
  { name: 'body_style', required: false, valid: oneOf('convertible', 'coupe', 'crossover', 'hatchback', 'minivan', 'sedan', 'suv', 'truck', 'van', 'wagon') },
  { name: 'engine', required: false, valid: oneOf('gasoline', 'diesel', 'electric', 'hybrid', 'lpg', 'methane', 'natural_gas', 'plug-in_hybrid', 'other') },
  { name: 'transmission', required: false, valid: oneOf('automatic', 'manual') },
  { name: 'drivetrain', required: false, valid: oneOf('AWD', '4WD', 'FWD', 'RWD') },
  { name: 'store_code', required: true, valid: nonEmpty(64) },
  { name: 'vehicle_fulfillment', required: true, valid: () => true },
  { name: 'dealership_name', required: true, valid: nonEmpty(150) },
  { name: 'dealership_address', required: true, valid: nonEmpty(300) },
];

export type FeedRecord = Record<string, string[]>;

/** Checks records against a field list: required fields present, every value valid, no unknown field. */
export function checkRecords(records: FeedRecord[], fields: FieldSpec[], options: { knownEmpty?: (record: FeedRecord, field: string) => boolean } = {}): string[] {
  const errors: string[] = [];
  const byName = new Map(fields.map((f) => [f.name, f]));
  records.forEach((record, index) => {
    const where = `item ${index + 1} (${record.vehicle_id?.[0] ?? record.id?.[0]})`;
    for (const name of Object.keys(record)) if (!byName.has(name)) errors.push(`${where}: unknown field ${name}`);
    for (const field of fields) {
      const values = (record[field.name] ?? []).filter((v) => v !== '');
      if (values.length === 0) {
        if (field.required === true || (field.required === 'when-known' && !options.knownEmpty?.(record, field.name))) errors.push(`${where}: ${field.name} missing`);
        continue;
      }
      if (values.length > 1 && !field.repeated) errors.push(`${where}: ${field.name} repeated`);
      for (const value of values) if (!field.valid(value)) errors.push(`${where}: ${field.name} ${JSON.stringify(value)} is not valid`);
    }
  });
  return errors;
}

/** A Meta CSV read back with csv-parse (strict: every row the header's width). */
export function readMetaCsv(text: string): { header: string[]; records: FeedRecord[] } {
  const rows: string[][] = parse(text, { relax_column_count: false, bom: false });
  const [header, ...body] = rows;
  return { header, records: body.map((row) => Object.fromEntries(header.map((name, i) => [name, [row[i]]]))) };
}

/** A Google RSS feed read back: well-formed, <rss><channel>, each <item>'s g: children by name. */
export function readGoogleXml(xml: string): { errors: string[]; records: FeedRecord[]; fulfillment: Array<Record<string, string>> } {
  const { root, errors } = parseXml(xml);
  const records: FeedRecord[] = [];
  const fulfillment: Array<Record<string, string>> = [];
  if (!root) return { errors, records, fulfillment };
  if (root.name !== 'rss' || root.attributes.version !== '2.0') errors.push('the root is not <rss version="2.0">');
  if (root.attributes['xmlns:g'] !== 'http://base.google.com/ns/1.0') errors.push('no xmlns:g="http://base.google.com/ns/1.0"');
  const channel = root.children.find((c) => c.name === 'channel');
  if (!channel || root.children.length !== 1) {
    errors.push('not one <channel> in <rss>');
    return { errors, records, fulfillment };
  }
  for (const child of channel.children) {
    if (child.name !== 'item') continue;
    const record: FeedRecord = {};
    const group: Record<string, string> = {};
    for (const attribute of child.children) {
      if (!attribute.name.startsWith('g:')) errors.push(`<${attribute.name}> without the g: prefix`);
      const name = attribute.name.slice(2);
      (record[name] ??= []).push(attribute.children.length > 0 ? '(group)' : attribute.text);
      if (name === 'vehicle_fulfillment') for (const sub of attribute.children) group[sub.name.slice(2)] = sub.text;
    }
    records.push(record);
    fulfillment.push(group);
  }
  return { errors, records, fulfillment };
}
