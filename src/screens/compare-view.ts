import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import type { CarDetail } from '@/modules/stock/stock.types';
import { specificationRows } from '@/screens/car-specifications';
import { priceView, type PriceView } from '@/screens/price-view';

/** At most this many cars side by side: three columns still read on a phone held sideways. */
export const COMPARE_MAX_CARS = 3;

export type CompareRow = { label: string; values: (string | null)[]; differs: boolean };
export type CompareView = { prices: PriceView[]; rows: CompareRow[]; features: CompareRow[] };

const NOT_STATED = '—';

/**
 * What the compare page shows (issue 35): each car's price block (the same quote as everywhere,
 * decision 052), then one row per specification any of the cars states, and one per feature any of
 * them has; a row whose values are not all the same is marked as a difference.
 */
export function compareView(cars: readonly CarDetail[], config: WebsiteConfig): CompareView {
  const specs = cars.map((car) => specificationRows(car, config).filter(([label]) => label !== 'VIN' && label !== 'Stock number'));
  const rows: CompareRow[] = specs[0]
    .map(([label], k) => ({ label, values: specs.map((rowsOfCar) => rowsOfCar[k][1]) }))
    .filter((row) => row.values.some((value) => value != null))
    .map((row) => ({ ...row, values: row.values.map((value) => value ?? NOT_STATED), differs: new Set(row.values).size > 1 }));
  const location = cars.map((car) => car.location?.name ?? null);
  if (location.some((name) => name != null)) rows.push({ label: 'Location', values: location.map((name) => name ?? NOT_STATED), differs: new Set(location).size > 1 });
  const allFeatures = [...new Set(cars.flatMap((car) => car.features))].sort((x, y) => x.localeCompare(y));
  const features = allFeatures.map((feature) => {
    const has = cars.map((car) => car.features.includes(feature));
    return { label: feature, values: has.map((yes) => (yes ? 'Yes' : 'No')), differs: has.some((yes) => yes !== has[0]) };
  });
  return { prices: cars.map((car) => priceView(car, config)), rows, features };
}

/** The cars a compare URL names (?car=slug, repeated): valid slugs, each once, at most COMPARE_MAX_CARS. */
export function compareSlugs(raw: string | string[] | undefined, isValidSlug: (slug: string) => boolean): string[] {
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return [...new Set(values.filter(isValidSlug))].slice(0, COMPARE_MAX_CARS);
}
