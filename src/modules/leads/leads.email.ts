import { spell } from '@/lib/format';
import { POSTCODE_RULES } from '@/lib/postcode';
import { makeDisplayName } from '@/modules/stock/server';
import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { COUNTRY_BY_LOCALE } from '@/modules/tenancy/tenancy.country';
import { leadDisplayName } from './form-rules/schemas';
import { CATEGORIES, SUBCATEGORIES } from './form-rules/categories';
import type { leads } from './leads.schema';

/**
 * The dealer's lead email (subject and plain text), built from the stored lead. The name is
 * leadDisplayName's; labels are in the website's spelling (US: 'ZIP code', 'Inquiry', 'License
 * plate'); a trade-in lists the visitor's vehicle and the car of interest under their own headings,
 * a test drive its preferred date and time, and every other field by its label, not its key.
 */

type LeadRow = typeof leads.$inferSelect;
export type EmailCar = { year: number; make: string; model: string; stocknum: string; vin: string | null };
type EmailSite = { name: string; config: Pick<WebsiteConfig, 'locale'> };

/** Labels of the lead form fields kept in attributes (form-rules/fields.ts and the forms' own fields). */
const ATTRIBUTE_LABELS: Record<string, string> = {
  rego: 'Registration (Rego)',
  Rego: 'Registration (Rego)',
  state: 'Registration state',
  vin: 'VIN',
  make: 'Make',
  model: 'Model',
  year: 'Year',
  km: 'Odometer (km)',
  odometer: 'Odometer (km)',
  condition: 'Condition',
  preferred_date: 'Preferred date',
  preferred_time: 'Preferred time',
  'Vehicle Make': 'Make',
  'Vehicle Model': 'Model',
  stock_number: 'Stock number',
  car_type: 'Condition',
  vehicle_status: 'Status',
  opt_in: 'Keep me up to date with news and offers',
  'where-did-you-hear-about-us': 'Where did you hear about us?',
  position: 'Position of interest',
  page_id: 'Page',
  additional_services: 'Additional services',
};

/** The visitor's own vehicle (a valuation's fields). */
const TRADE_IN_KEYS = ['rego', 'state', 'vin', 'make', 'model', 'year', 'km', 'condition'];
/** The car the lead is about, as the car forms send it. */
const CAR_KEYS = ['Vehicle Make', 'Vehicle Model', 'stock_number', 'car_type', 'vehicle_status'];
const TEST_DRIVE_KEYS = ['preferred_date', 'preferred_time'];
/** Kept for the dashboard, not for the reader of the email. */
const UNSHOWN_KEYS = new Set(['verified_phone']);

const label = (key: string) => ATTRIBUTE_LABELS[key] ?? key.replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());
const text = (value: unknown) => (Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value ?? ''));

const carName = (car: EmailCar) => `${car.year} ${makeDisplayName(car.make)} ${car.model}`;

function carLine(car: EmailCar): string {
  return `${carName(car)} (stock ${car.stocknum || '-'}${car.vin ? `, VIN ${car.vin}` : ''})`;
}

export function isTestDrive(row: Pick<LeadRow, 'category' | 'subcategory'>): boolean {
  return row.category === CATEGORIES.testDrive || row.subcategory === SUBCATEGORIES.testDrive;
}

export function leadEmailSubject(row: LeadRow, site: EmailSite, car: EmailCar | null): string {
  const about = car ? ` about the ${carName(car)}` : '';
  const what = isTestDrive(row) ? 'Test drive booking' : row.category;
  return spell(site.config, `${what}${about} from ${leadDisplayName(row) || 'a visitor'} (${site.name})`).replace(/[\r\n]+/g, ' ').slice(0, 250);
}

export function leadEmailText(row: LeadRow, site: EmailSite, car: EmailCar | null): string {
  const say = (words: string) => spell(site.config, words);
  const attributes = Object.entries(row.attributes).filter(([key]) => !UNSHOWN_KEYS.has(key));
  const picked = new Set<string>();
  const pick = (keys: string[]) =>
    keys.flatMap((key) => {
      const found = attributes.find(([name]) => name === key);
      if (!found) return [];
      picked.add(key);
      return [[label(key), text(found[1])] as [string, string]];
    });
  const sections: { heading: string | null; lines: [string, string | null | undefined][] }[] = [
    {
      heading: null,
      lines: [
        [isTestDrive(row) ? 'Test drive booking' : 'Enquiry', say([row.category, row.subcategory].filter(Boolean).join(' / '))],
        ['Name', leadDisplayName(row)],
        ['Email', row.email],
        ['Phone', row.phone],
        [POSTCODE_RULES[COUNTRY_BY_LOCALE[site.config.locale]].label, row.postcode],
      ],
    },
  ];
  const tradeIn = pick(TRADE_IN_KEYS);
  const carFields = pick(CAR_KEYS);
  const carLines: [string, string][] = car ? [['Vehicle', carLine(car)]] : carFields;
  if (tradeIn.length > 0) {
    sections.push({ heading: 'Trade-in vehicle', lines: tradeIn });
    if (carLines.length > 0) sections.push({ heading: 'Car of interest', lines: carLines });
  } else {
    sections[0]!.lines.push(...carLines);
  }
  sections[0]!.lines.push(['Message', row.message]);
  const testDrive = pick(TEST_DRIVE_KEYS);
  if (testDrive.length > 0) sections.push({ heading: 'Test drive', lines: testDrive });
  const rest = attributes.filter(([key]) => !picked.has(key)).map(([key, value]) => [label(key), text(value)] as [string, string]);
  if (rest.length > 0) sections.push({ heading: 'Other details', lines: rest });
  sections.push({ heading: null, lines: [['Page', row.url], ['Website', site.name], ['Lead id', row.id]] });
  return sections
    .map(({ heading, lines }) => {
      const shown = lines.filter(([, value]) => value).map(([name, value]) => `${say(name)}: ${value}`);
      return shown.length === 0 ? '' : [...(heading ? [say(heading)] : []), ...shown].join('\n');
    })
    .filter(Boolean)
    .join('\n\n');
}
