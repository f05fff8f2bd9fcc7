import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { spell } from '@/lib/format';
import { MAKE_MODEL_SEPARATOR, type RangeFacet, type SortOption, type TermFacet } from './search.types';

/** Words of the search screen, in one place. Client-safe. */

export const SEARCH_MESSAGES = {
  unavailableTitle: 'Search is taking a break',
  unavailableBody: 'We could not load our stock just now. Please try again in a minute, or call us: we are happy to help.',
} as const;

const FACET_LABELS: Record<TermFacet | RangeFacet, string> = {
  location_name: 'Location',
  car_type: 'Condition',
  make: 'Make',
  make_model: 'Model',
  model: 'Model',
  colour: 'Colour',
  simple_body: 'Body type',
  simple_transmission: 'Transmission',
  simple_drive: 'Drive',
  simple_fuel: 'Fuel',
  dealership_name: 'Dealership',
  status: 'Availability',
  badge: 'Badge',
  city: 'City',
  state: 'State',
  item_type: 'Vehicle type',
  tag: 'Tag',
  certified: 'Certified',
  price: 'Price',
  subscription_price: 'Subscription price',
  km: 'Kilometres',
  year: 'Year',
  created_at_timestamp: 'Listed',
};

export function facetLabel(facet: TermFacet | RangeFacet, config: Pick<WebsiteConfig, 'distanceUnit' | 'locale'>): string {
  if (facet === 'km' && config.distanceUnit === 'mi') return 'Miles';
  return spell(config, FACET_LABELS[facet]);
}

export function sortLabel(sort: SortOption, config: Pick<WebsiteConfig, 'distanceUnit' | 'locale'>): string {
  const distance = config.distanceUnit === 'mi' ? 'miles' : 'kms';
  const labels: Record<SortOption, string> = {
    'custom_rank:desc': 'Most relevant',
    'created_at_timestamp:desc': 'Latest',
    'price:desc': 'Highest price',
    'price:asc': 'Lowest price',
    'km:asc': `Lowest ${distance}`,
    'km:desc': `Highest ${distance}`,
    'subscription_price:desc': 'Highest subscription price',
    'subscription_price:asc': 'Lowest subscription price',
  };
  return labels[sort];
}

/** How a facet value reads: car types by the website's condition words. */
export function facetValueLabel(
  facet: TermFacet,
  value: string,
  config: Pick<WebsiteConfig, 'usedConditionLabel' | 'locale'>,
): string {
  if (facet === 'car_type') {
    const word = value === 'used' ? config.usedConditionLabel : value;
    return word.charAt(0).toUpperCase() + word.slice(1);
  }
  if (facet === 'make_model') return value.slice(value.indexOf(MAKE_MODEL_SEPARATOR) + 1);
  if (facet === 'make') return makeDisplayName(value);
  if (facet === 'certified') return value === 'true' ? 'Certified' : 'Not certified';
  // Fuel in the website's words: 'Petrol' is 'Gas' on en-US sites.
  if (facet === 'simple_fuel') return spell(config, value);
  return value;
}

/** Display names of makes (SPEC §3), by the make in lowercase: skoda shows as Škoda, chery nz as Chery. */
const MAKE_DISPLAY_NAMES: Record<string, string> = { škoda: 'Škoda', skoda: 'Škoda', 'chery nz': 'Chery' };

/** A make as shown: 'ŠKODA' → 'Škoda'; other makes as written. */
export function makeDisplayName(make: string): string {
  return MAKE_DISPLAY_NAMES[make.toLowerCase()] ?? make;
}

const MAKE_IN_TEXT = new RegExp(`(?<!\\p{L})(${Object.keys(MAKE_DISPLAY_NAMES).join('|')})(?!\\p{L})`, 'giu');

/** A car's title as shown: the makes in it by their display names ('2021 ŠKODA Octavia' → '2021 Škoda Octavia'). */
export function carDisplayName(name: string): string {
  return name.replace(MAKE_IN_TEXT, (make) => makeDisplayName(make));
}

/** 'new-used-and-demo-trucks' → 'New, used and demo trucks'. */
export function headingFromSlug(slug: string): string {
  const words = slug.split('-').filter(Boolean).join(' ').replace(/^(\w+) (\w+) and /, '$1, $2 and ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
