import { describe, expect, it } from 'vitest';
import { parseWebsiteConfig, SEARCH_FILTER_KEYS, type WebsiteConfigInput } from '@/modules/tenancy/tenancy.config';
import { engineFilters, facetGroups, facetsForSidebar, filterChips, isIndexable, sidebarGroups, visitorState, type FacetGroup, type TermFacetGroup } from './search.view';
import { parseSearchParams, type SearchState } from './search.validation';
import type { SearchResponse } from './search.types';

const config = (input: WebsiteConfigInput = {}) => parseWebsiteConfig(input);
const state = (filters: SearchState['filters'] = {}, extra: Partial<SearchState> = {}): SearchState => ({ filters, page: 1, ...extra });

/** The state a link points to. */
function stateOf(href: string): SearchState {
  const url = new URL(href, 'http://x');
  const params: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    params[key] = values.length === 1 ? values[0] : values;
  }
  return parseSearchParams(params, ['custom_rank:desc', 'created_at_timestamp:desc', 'price:desc', 'price:asc', 'km:asc']);
}

describe('facetsForSidebar', () => {
  it("counts every sidebar filter of the website's configuration", () => {
    expect(facetsForSidebar(config(), []).sort()).toEqual([...SEARCH_FILTER_KEYS].sort());
    expect(facetsForSidebar(config({ search: { filters: ['car_type', 'price'] } }), [])).toEqual(['car_type', 'price']);
  });

  it('counts models whenever makes are shown, since they nest under them', () => {
    expect(facetsForSidebar(config({ search: { filters: ['make', 'year'] } }), []).sort()).toEqual(['make', 'make_model', 'year']);
  });

  it('leaves out what the path presets', () => {
    const all = config();
    expect(facetsForSidebar(all, ['car_type'])).not.toContain('car_type');
    expect(facetsForSidebar(all, ['dealership_name'])).not.toContain('dealership_name');
    expect(facetsForSidebar(all, ['car_type'])).toContain('make');
  });

  it("keeps a preset make's models, and drops them once the path presets the model too", () => {
    const makePage = facetsForSidebar(config(), ['car_type', 'make']);
    expect(makePage).not.toContain('make');
    expect(makePage).toContain('make_model');
    const modelPage = facetsForSidebar(config(), ['car_type', 'make', 'make_model']);
    expect(modelPage).not.toContain('make');
    expect(modelPage).not.toContain('make_model');
    expect(modelPage).toContain('price');
  });
});

describe('engineFilters', () => {
  it('passes the visitor filters through on a kilometre website', () => {
    const s = state({ km: { min: 10, max: 100 }, make: ['Toyota'] });
    expect(engineFilters(s, {}, config())).toEqual({ km: { min: 10, max: 100 }, make: ['Toyota'] });
  });

  it('converts an odometer range from miles to kilometres, widening outwards', () => {
    const mi = config({ distanceUnit: 'mi' });
    expect(engineFilters(state({ km: { min: 10, max: 100 } }), {}, mi)).toEqual({ km: { min: 16, max: 161 } });
    expect(engineFilters(state({ km: { max: 50_000 } }), {}, mi)).toEqual({ km: { max: 80_468 } });
    expect(engineFilters(state({ km: { min: 1 } }), {}, mi)).toEqual({ km: { min: 1 } });
    expect(engineFilters(state({ price: { min: 10 } }), {}, mi)).toEqual({ price: { min: 10 } });
  });

  it('lets the preset win over the visitor', () => {
    const filters = engineFilters(state({ car_type: ['new'], colour: ['Red'] }), { car_type: ['used'] }, config());
    expect(filters).toEqual({ car_type: ['used'], colour: ['Red'] });
    expect(engineFilters(state({ dealership_name: ['Other'] }), { dealership_name: ['Mine'] }, config())).toEqual({ dealership_name: ['Mine'] });
  });

  it("keeps only the preset make's models on a make page", () => {
    const preset = { make: ['Toyota'] };
    expect(engineFilters(state({ make: ['Mazda'], make_model: ['Toyota:HiLux', 'Mazda:CX-5'] }), preset, config())).toEqual({
      make: ['Toyota'],
      make_model: ['Toyota:HiLux'],
    });
    expect(engineFilters(state({ make_model: ['Mazda:CX-5'] }), preset, config())).toEqual({ make: ['Toyota'] });
    const modelPage = { make: ['Toyota'], make_model: ['Toyota:HiLux'] };
    expect(engineFilters(state({ make_model: ['Toyota:Corolla'] }), modelPage, config())).toEqual(modelPage);
  });

  it("does not change the visitor's state", () => {
    const s = state({ km: { min: 10 }, car_type: ['new'] });
    const copy = structuredClone(s);
    engineFilters(s, { car_type: ['used'] }, config({ distanceUnit: 'mi' }));
    expect(s).toEqual(copy);
  });
});

describe('visitorState', () => {
  it('removes preset facets from the URL state and keeps the rest', () => {
    const s = state({ car_type: ['new'], make: ['Toyota'], colour: ['Red'] }, { q: 'x', page: 3 });
    expect(visitorState(s, ['car_type', 'make'])).toEqual({ q: 'x', page: 3, filters: { colour: ['Red'] } });
    expect(s.filters.car_type).toEqual(['new']);
  });
});

describe('facetGroups', () => {
  const response: Pick<SearchResponse, 'facetDistribution' | 'facetStats'> = {
    facetDistribution: {
      car_type: { used: 4, new: 1, demo: 2 },
      make: { Toyota: 3, Mazda: 2, ŠKODA: 1 },
      make_model: { 'Toyota:HiLux': 2, 'Toyota:Corolla': 1, 'Mazda:CX-5': 2, 'ŠKODA:Octavia': 1 },
      colour: { White: 3, black: 1 },
      location_name: {},
    },
    facetStats: { price: { min: 10_000, max: 50_000 }, km: { min: 0, max: 160_934 } },
  };
  const term = (groups: FacetGroup[], facet: string) => groups.find((g) => g.facet === facet) as TermFacetGroup | undefined;

  it("follows the website's filter order and leaves out facets with nothing to show", () => {
    const groups = facetGroups(config(), response, state(), {}, []);
    expect(groups.map((g) => g.facet)).toEqual(['car_type', 'make', 'colour', 'km', 'price']);
    const only = facetGroups(config({ search: { filters: ['price', 'colour'] } }), response, state(), {}, []);
    expect(only.map((g) => g.facet)).toEqual(['price', 'colour']);
  });

  it('orders car types new, demo, used, labelled by the website', () => {
    expect(term(facetGroups(config(), response, state(), {}, []), 'car_type')!.options.map((o) => [o.value, o.label, o.count])).toEqual([
      ['new', 'New', 1],
      ['demo', 'Demo', 2],
      ['used', 'Used', 4],
    ]);
    const preOwned = facetGroups(config({ usedConditionLabel: 'pre-owned' }), response, state(), {}, []);
    expect(term(preOwned, 'car_type')!.options.at(-1)!.label).toBe('Pre-owned');
  });

  it('sorts other values by label, ignoring case, with display names', () => {
    const groups = facetGroups(config(), response, state(), {}, []);
    expect(term(groups, 'make')!.options.map((o) => o.label)).toEqual(['Mazda', 'Škoda', 'Toyota']);
    expect(term(groups, 'make')!.options.find((o) => o.label === 'Škoda')!.value).toBe('ŠKODA');
    expect(term(groups, 'colour')!.options.map((o) => o.value)).toEqual(['black', 'White']);
  });

  it('nests models only under selected makes, and keeps selected values that now count 0', () => {
    const s = state({ make: ['Toyota', 'Lada'], make_model: ['Toyota:Yaris'], colour: ['Green'] });
    const groups = facetGroups(config(), response, s, {}, []);
    const makes = term(groups, 'make')!.options;
    expect(makes.map((o) => [o.value, o.count, o.selected])).toEqual([
      ['Lada', 0, true],
      ['Mazda', 2, false],
      ['ŠKODA', 1, false],
      ['Toyota', 3, true],
    ]);
    expect(makes.find((o) => o.value === 'Mazda')!.models).toBeUndefined();
    expect(makes.find((o) => o.value === 'Lada')!.models).toEqual([]);
    expect(makes.find((o) => o.value === 'Toyota')!.models!.map((o) => [o.value, o.label, o.count, o.selected])).toEqual([
      ['Toyota:Corolla', 'Corolla', 1, false],
      ['Toyota:HiLux', 'HiLux', 2, false],
      ['Toyota:Yaris', 'Yaris', 0, true],
    ]);
    expect(term(groups, 'colour')!.options.find((o) => o.value === 'Green')).toEqual({ value: 'Green', label: 'Green', count: 0, selected: true });
    expect(groups.some((g) => g.facet === 'make_model')).toBe(false);
  });

  it("does not mix up makes that share a prefix", () => {
    const r = { facetDistribution: { make: { Mini: 1, 'Mini Cooper': 1 }, make_model: { 'Mini:One': 1, 'Mini Cooper:S': 1 } }, facetStats: {} };
    const makes = term(facetGroups(config(), r, state({ make: ['Mini'] }), {}, []), 'make')!.options;
    expect(makes.find((o) => o.value === 'Mini')!.models!.map((o) => o.value)).toEqual(['Mini:One']);
  });

  it('shows the models of a preset make as their own group and hides preset facets', () => {
    const groups = facetGroups(config(), response, state({ make_model: ['Toyota:HiLux'] }), { car_type: ['used'], make: ['Toyota'] }, ['car_type', 'make']);
    expect(groups.map((g) => g.facet)).toEqual(['make_model', 'colour', 'km', 'price']);
    expect(term(groups, 'make_model')!.label).toBe('Model');
    expect(term(groups, 'make_model')!.options.map((o) => [o.label, o.selected])).toEqual([
      ['Corolla', false],
      ['HiLux', true],
    ]);
    const modelPage = facetGroups(config(), response, state(), { make: ['Toyota'], make_model: ['Toyota:HiLux'] }, ['make', 'make_model']);
    expect(modelPage.map((g) => g.facet)).toEqual(['car_type', 'colour', 'km', 'price']);
  });

  it('gives ranges their bounds in the unit shown and the chosen min and max', () => {
    const groups = facetGroups(config(), response, state({ price: { min: 20_000 }, year: { max: 2020 } }), {}, []);
    expect(groups.find((g) => g.facet === 'price')).toEqual({
      kind: 'range',
      facet: 'price',
      label: 'Price',
      min: 20_000,
      max: undefined,
      bounds: { min: 10_000, max: 50_000 },
      unit: 'money',
    });
    // A chosen range stays shown even when no car has a value for it.
    expect(groups.find((g) => g.facet === 'year')).toMatchObject({ kind: 'range', max: 2020, bounds: undefined, unit: 'year' });
    expect(groups.find((g) => g.facet === 'km')).toMatchObject({ label: 'Kilometres', bounds: { min: 0, max: 160_934 }, unit: 'distance' });
    const mi = facetGroups(config({ distanceUnit: 'mi', locale: 'en-US' }), response, state(), {}, []);
    expect(mi.find((g) => g.facet === 'km')).toMatchObject({ label: 'Miles', bounds: { min: 0, max: 100_000 } });
    expect(term(mi, 'colour')!.label).toBe('Color');
  });
});

describe('sidebarGroups', () => {
  it('sends an option its label only where it differs from the value, and selected only when true', () => {
    const groups: FacetGroup[] = [
      {
        kind: 'term',
        facet: 'make',
        label: 'Make',
        options: [
          { value: 'Mazda', label: 'Mazda', count: 3, selected: true, models: [{ value: 'Mazda|CX-5', label: 'CX-5', count: 2, selected: false }] },
          { value: 'used', label: 'Used', count: 1, selected: false },
        ],
      },
      { kind: 'range', facet: 'price', label: 'Price', max: 20_000, bounds: { min: 4_990, max: 40_000 }, unit: 'money' },
    ];
    expect(sidebarGroups(groups)).toEqual([
      {
        kind: 'term',
        facet: 'make',
        label: 'Make',
        options: [
          { value: 'Mazda', count: 3, selected: true, models: [{ value: 'Mazda|CX-5', label: 'CX-5', count: 2 }] },
          { value: 'used', label: 'Used', count: 1 },
        ],
      },
      groups[1],
    ]);
  });
});

describe('filterChips', () => {
  const path = '/search/used-cars';
  const chosen = state(
    { make: ['Mazda', 'Toyota'], make_model: ['Mazda:CX-5', 'Toyota:HiLux'], price: { min: 10_000, max: 20_000 }, km: { max: 50_000 }, year: { min: 2018 } },
    { q: 'auto', sort: 'price:asc', page: 3 },
  );

  it('gives one chip per value and range, labelled', () => {
    expect(filterChips(path, chosen, config()).map((c) => c.label)).toEqual([
      'Make: Mazda',
      'Make: Toyota',
      'Model: CX-5',
      'Model: HiLux',
      'Price: $10,000 – $20,000',
      'Kilometres: up to 50,000 km',
      'Year: from 2018',
    ]);
    expect(filterChips(path, state(), config())).toEqual([]);
  });

  it('links each chip to the state without its value, on page 1, keeping q and sort', () => {
    const chips = filterChips(path, chosen, config());
    for (const chip of chips) {
      expect(chip.href.startsWith(`${path}?`)).toBe(true);
      expect(new URL(chip.href, 'http://x').searchParams.has('page')).toBe(false);
      expect(stateOf(chip.href)).toMatchObject({ q: 'auto', sort: 'price:asc', page: 1 });
    }
    const byLabel = (label: string) => stateOf(chips.find((c) => c.label === label)!.href).filters;
    expect(byLabel('Model: HiLux')).toEqual({ ...chosen.filters, make_model: ['Mazda:CX-5'] });
    const withoutPrice: SearchState['filters'] = { ...chosen.filters };
    delete withoutPrice.price;
    expect(byLabel('Price: $10,000 – $20,000')).toEqual(withoutPrice);
  });

  it("removes a make's models with the make", () => {
    const chips = filterChips(path, chosen, config());
    expect(stateOf(chips.find((c) => c.label === 'Make: Toyota')!.href).filters).toEqual({
      make: ['Mazda'],
      make_model: ['Mazda:CX-5'],
      price: { min: 10_000, max: 20_000 },
      km: { max: 50_000 },
      year: { min: 2018 },
    });
    const one = state({ make: ['Toyota'], make_model: ['Toyota:HiLux', 'Toyota:Corolla'] });
    expect(filterChips(path, one, config())[0].href).toBe(path);
  });

  it('leaves the default sort out of the links', () => {
    const chips = filterChips(path, state({ make: ['Toyota'] }, { sort: 'custom_rank:desc' }), config());
    expect(chips[0].href).toBe(path);
  });

  it("words chips in the website's language and units", () => {
    const us = config({ locale: 'en-US', currency: 'USD', distanceUnit: 'mi', usedConditionLabel: 'pre-owned' });
    const labels = filterChips(path, state({ car_type: ['used'], colour: ['Red'], make: ['ŠKODA'], km: { min: 1000, max: 5000 } }), us).map((c) => c.label);
    expect(labels).toEqual(['Condition: Pre-owned', 'Make: Škoda', 'Color: Red', 'Miles: 1,000 mi – 5,000 mi']);
  });
});

describe('isIndexable', () => {
  it('indexes only the bare path and its pages', () => {
    expect(isIndexable(state())).toBe(true);
    expect(isIndexable(state({}, { page: 4 }))).toBe(true);
    expect(isIndexable(state({ make: undefined }))).toBe(true);
  });

  it('does not index any filter, text or sort', () => {
    expect(isIndexable(state({}, { q: 'hilux' }))).toBe(false);
    expect(isIndexable(state({}, { sort: 'price:asc' }))).toBe(false);
    expect(isIndexable(state({ make: ['Toyota'] }))).toBe(false);
    expect(isIndexable(state({ price: { min: 1 } }))).toBe(false);
  });
});
