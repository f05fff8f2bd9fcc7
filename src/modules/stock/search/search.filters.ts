import { cleanFilterValue } from './search.text';
import { MAKE_MODEL_SEPARATOR, RANGE_FACETS, TERM_FACETS, type RangeFacet, type SearchFilters, type TermFacet } from './search.types';

/**
 * A search's filters as filter groups: a car passes a group when it matches one of the group's
 * values (or its range); it is listed when it passes every group. Both the SQL statement and the
 * stock index (stock-index.ts) evaluate these, so they filter alike. Pure and client-safe.
 */
export type FilterGroup =
  /** make and make_model filter together: a car passes when its make:model is selected, or its make is and none of that make's models is. */
  | { key: 'make'; kind: 'make'; makeModels: [make: string, model: string][]; wholeMakes: string[] }
  /** location_name and dealership_name: the ids of the scope's locations or dealerships with these names. */
  | { key: 'location_name' | 'dealership_name'; kind: 'named'; names: string[] }
  | { key: 'certified'; kind: 'flags'; flags: boolean[] }
  | { key: Exclude<TermFacet, 'make' | 'make_model' | 'location_name' | 'dealership_name' | 'certified'>; kind: 'values'; values: string[] }
  | { key: RangeFacet; kind: 'range'; min: number | null; max: number | null };

/** Filter group of a facet: make and make_model filter together. */
export function groupOf(facet: TermFacet | RangeFacet): string {
  return facet === 'make_model' ? 'make' : facet;
}

function cleanValues(values: readonly string[] | undefined): string[] {
  return [...new Set((values ?? []).map(cleanFilterValue).filter(Boolean))];
}

export function filterGroups(filters: SearchFilters): FilterGroup[] {
  const groups: FilterGroup[] = [];
  const makes = cleanValues(filters.make);
  const makeModelValues = cleanValues(filters.make_model);
  if (makes.length > 0 || makeModelValues.length > 0) {
    // 'Make:Model', split at the first separator (a model may contain one); a value without both matches nothing.
    const makeModels = makeModelValues.flatMap((value) => {
      const at = value.indexOf(MAKE_MODEL_SEPARATOR);
      const model = value.slice(at + 1);
      return at > 0 && model ? [[value.slice(0, at), model] as [string, string]] : [];
    });
    const narrowed = new Set(makeModels.map(([make]) => make));
    groups.push({ key: 'make', kind: 'make', makeModels, wholeMakes: makes.filter((make) => !narrowed.has(make)) });
  }
  for (const facet of TERM_FACETS) {
    if (facet === 'make' || facet === 'make_model') continue;
    const values = cleanValues(filters[facet]);
    if (values.length === 0) continue;
    if (facet === 'location_name' || facet === 'dealership_name') groups.push({ key: facet, kind: 'named', names: values });
    else if (facet === 'certified') {
      const flags = values.filter((v) => v === 'true' || v === 'false').map((v) => v === 'true');
      groups.push({ key: facet, kind: 'flags', flags });
    } else groups.push({ key: facet, kind: 'values', values });
  }
  for (const facet of RANGE_FACETS) {
    const range = filters[facet];
    if (range && (range.min != null || range.max != null)) groups.push({ key: facet, kind: 'range', min: range.min ?? null, max: range.max ?? null });
  }
  return groups;
}
