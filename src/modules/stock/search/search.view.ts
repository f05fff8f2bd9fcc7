import { collator } from '@/lib/intl';
import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { formatMoney, formatOdometerValue, KM_PER_MILE, odometerValue } from '@/lib/format';
import { facetLabel, facetValueLabel } from './search.labels';
import { searchHref, type SearchState } from './search.validation';
import {
  MAKE_MODEL_SEPARATOR,
  RANGE_FACETS,
  TERM_FACETS,
  type Facet,
  type RangeFacet,
  type SearchFilters,
  type SearchResponse,
  type TermFacet,
} from './search.types';

/**
 * What the search screen shows, worked out from the website configuration, the URL state and the
 * engine's answer. Pure and client-safe, so every rule here is unit-tested.
 */

/** Sidebar filter keys (SPEC §2) → the facets they need counted. */
export function facetsForSidebar(config: WebsiteConfig, presetFacets: readonly TermFacet[]): Facet[] {
  const facets = new Set<Facet>(config.search.filters);
  // Models nest under makes, so counting makes counts models too; a preset make still lists its models.
  if (facets.has('make')) facets.add('make_model');
  for (const facet of presetFacets) facets.delete(facet);
  return [...facets];
}

/** The filters the engine gets: the visitor's (odometer in the website's unit) under the path's preset. */
export function engineFilters(state: SearchState, preset: SearchFilters, config: Pick<WebsiteConfig, 'distanceUnit'>): SearchFilters {
  const filters: SearchFilters = { ...state.filters };
  const km = filters.km;
  if (km && config.distanceUnit === 'mi') {
    filters.km = {
      ...(km.min != null && { min: Math.floor(km.min * KM_PER_MILE) }),
      ...(km.max != null && { max: Math.ceil(km.max * KM_PER_MILE) }),
    };
  }
  for (const [facet, value] of Object.entries(preset)) (filters as Record<string, unknown>)[facet] = value;
  if (preset.make && !preset.make_model) {
    // Models chosen on a make's page must belong to that make.
    const models = filters.make_model?.filter((mm) => preset.make!.includes(mm.split(MAKE_MODEL_SEPARATOR)[0]));
    if (models?.length) filters.make_model = models;
    else delete filters.make_model;
  }
  return filters;
}

/** The visitor's own filters: the URL's, minus what the path presets. */
export function visitorState(state: SearchState, presetFacets: readonly TermFacet[]): SearchState {
  const filters: SearchFilters = { ...state.filters };
  for (const facet of presetFacets) delete filters[facet];
  return { ...state, filters };
}

export type FacetOption = { value: string; label: string; count: number; selected: boolean; models?: FacetOption[] };
export type TermFacetGroup = { kind: 'term'; facet: TermFacet; label: string; options: FacetOption[] };
export type RangeFacetGroup = {
  kind: 'range';
  facet: RangeFacet;
  label: string;
  min?: number;
  max?: number;
  /** Bounds of the cars in view, in the unit shown. */
  bounds?: { min: number; max: number };
  unit: 'money' | 'distance' | 'year';
};
export type FacetGroup = TermFacetGroup | RangeFacetGroup;

/**
 * A facet option as the filter sidebar (a client component) receives it: the label only where it
 * differs from the value and `selected` only when true, since the page's RSC payload carries every
 * option of every group.
 */
export type FilterOption = { value: string; count: number; label?: string; selected?: true; models?: FilterOption[] };
/** A facet group as the filter sidebar receives it (the engine's filter groups are search.definition.ts's FilterGroup). */
export type SidebarGroup = RangeFacetGroup | (Omit<TermFacetGroup, 'options'> & { options: FilterOption[] });

function filterOption({ value, label, count, selected, models }: FacetOption): FilterOption {
  return {
    value,
    count,
    ...(label === value ? {} : { label }),
    ...(selected ? { selected: true as const } : {}),
    ...(models ? { models: models.map(filterOption) } : {}),
  };
}

export function sidebarGroups(groups: FacetGroup[]): SidebarGroup[] {
  return groups.map((group) => (group.kind === 'term' ? { ...group, options: group.options.map(filterOption) } : group));
}

const CAR_TYPE_ORDER = ['new', 'demo', 'used'];

function byLabel(a: FacetOption, b: FacetOption) {
  return collator('en', { sensitivity: 'base', numeric: true }).compare(a.label, b.label);
}

function options(
  facet: TermFacet,
  distribution: Record<string, number> | undefined,
  selected: readonly string[],
  config: WebsiteConfig,
): FacetOption[] {
  const counts = new Map(Object.entries(distribution ?? {}));
  for (const value of selected) if (!counts.has(value)) counts.set(value, 0);
  const list = [...counts].map(([value, count]) => ({
    value,
    label: facetValueLabel(facet, value, config),
    count,
    selected: selected.includes(value),
  }));
  if (facet === 'car_type') return list.sort((a, b) => CAR_TYPE_ORDER.indexOf(a.value) - CAR_TYPE_ORDER.indexOf(b.value));
  return list.sort(byLabel);
}

/** Sidebar groups in the website's order; makes carry their models once chosen (or preset). */
export function facetGroups(
  config: WebsiteConfig,
  response: Pick<SearchResponse, 'facetDistribution' | 'facetStats'>,
  state: SearchState,
  preset: SearchFilters,
  presetFacets: readonly TermFacet[],
): FacetGroup[] {
  const groups: FacetGroup[] = [];
  const selectedModels = state.filters.make_model ?? [];
  const modelsOf = (make: string) =>
    options(
      'make_model',
      Object.fromEntries(
        Object.entries(response.facetDistribution.make_model ?? {}).filter(([mm]) => mm.startsWith(`${make}${MAKE_MODEL_SEPARATOR}`)),
      ),
      selectedModels.filter((mm) => mm.startsWith(`${make}${MAKE_MODEL_SEPARATOR}`)),
      config,
    );

  for (const key of config.search.filters) {
    if (TERM_FACETS.includes(key as TermFacet)) {
      const facet = key as TermFacet;
      if (facet === 'make_model') {
        // Shown nested under the makes; on its own only where the path presets the make.
        if (!presetFacets.includes('make') || presetFacets.includes('make_model')) continue;
        const make = preset.make?.[0];
        if (make) groups.push({ kind: 'term', facet, label: facetLabel(facet, config), options: modelsOf(make) });
        continue;
      }
      if (presetFacets.includes(facet)) continue;
      const list = options(facet, response.facetDistribution[facet], state.filters[facet] ?? [], config);
      if (facet === 'make') for (const option of list) if (option.selected) option.models = modelsOf(option.value);
      if (list.length > 0) groups.push({ kind: 'term', facet, label: facetLabel(facet, config), options: list });
    } else if (RANGE_FACETS.includes(key as RangeFacet)) {
      const facet = key as RangeFacet;
      const stats = response.facetStats[facet];
      const unit = facet === 'km' ? 'distance' : facet === 'year' ? 'year' : 'money';
      const toShown = (value: number) => (facet === 'km' ? odometerValue(config, value) : value);
      const range = state.filters[facet];
      if (!stats && !range) continue;
      groups.push({
        kind: 'range',
        facet,
        label: facetLabel(facet, config),
        min: range?.min,
        max: range?.max,
        bounds: stats ? { min: toShown(stats.min), max: toShown(stats.max) } : undefined,
        unit,
      });
    }
  }
  return groups;
}

export type Chip = { label: string; href: string };

function rangeText(facet: RangeFacet, value: number, config: WebsiteConfig): string {
  if (facet === 'km') return formatOdometerValue(config, value);
  if (facet === 'year') return String(value);
  return formatMoney(config, value);
}

/** One removable chip per chosen value or range, each linking to the state without it. */
export function filterChips(path: string, state: SearchState, config: WebsiteConfig): Chip[] {
  const chips: Chip[] = [];
  const without = (filters: SearchFilters) => searchHref(path, { ...state, filters, page: 1 }, config.search.defaultSort);
  for (const facet of TERM_FACETS) {
    for (const value of state.filters[facet] ?? []) {
      const rest = (state.filters[facet] ?? []).filter((v) => v !== value);
      const filters: SearchFilters = { ...state.filters, [facet]: rest.length > 0 ? rest : undefined };
      // Removing a make removes its models too.
      if (facet === 'make') {
        const models = (state.filters.make_model ?? []).filter((mm) => !mm.startsWith(`${value}${MAKE_MODEL_SEPARATOR}`));
        filters.make_model = models.length > 0 ? models : undefined;
      }
      chips.push({ label: `${facetLabel(facet, config)}: ${facetValueLabel(facet, value, config)}`, href: without(filters) });
    }
  }
  for (const facet of RANGE_FACETS) {
    const range = state.filters[facet];
    if (!range) continue;
    const text =
      range.min != null && range.max != null
        ? `${rangeText(facet, range.min, config)} – ${rangeText(facet, range.max, config)}`
        : range.min != null
          ? `from ${rangeText(facet, range.min, config)}`
          : `up to ${rangeText(facet, range.max!, config)}`;
    chips.push({ label: `${facetLabel(facet, config)}: ${text}`, href: without({ ...state.filters, [facet]: undefined }) });
  }
  return chips;
}

/** Only the path itself (and its pages) is for search engines: any filter, text or sort is noindex. */
export function isIndexable(state: SearchState): boolean {
  return !state.q && !state.sort && Object.values(state.filters).every((v) => v == null);
}
