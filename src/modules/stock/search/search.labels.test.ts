import { describe, expect, it } from 'vitest';
import { parseWebsiteConfig, SORT_OPTIONS } from '@/modules/tenancy/tenancy.config';
import { carDisplayName, makeDisplayName, facetLabel, facetValueLabel, headingFromSlug, sortLabel } from './search.labels';
import { FACETS } from './search.types';

const au = parseWebsiteConfig({});
const us = parseWebsiteConfig({ locale: 'en-US', distanceUnit: 'mi', usedConditionLabel: 'pre-owned' });

describe('search labels', () => {
  it('labels every facet, in the website spelling and unit', () => {
    for (const facet of FACETS) expect(facetLabel(facet, au)).toMatch(/^[A-Z]/);
    expect(facetLabel('colour', au)).toBe('Colour');
    expect(facetLabel('colour', us)).toBe('Color');
    expect(facetLabel('km', au)).toBe('Kilometres');
    expect(facetLabel('km', us)).toBe('Miles');
    expect(facetLabel('car_type', au)).toBe('Condition');
  });

  it('labels every sort option, distance sorts in the website unit (SPEC §2)', () => {
    for (const sort of SORT_OPTIONS) expect(sortLabel(sort, au)).toBeTruthy();
    expect(sortLabel('custom_rank:desc', au)).toBe('Most relevant');
    expect(sortLabel('created_at_timestamp:desc', au)).toBe('Latest');
    expect(sortLabel('km:asc', au)).toBe('Lowest kms');
    expect(sortLabel('km:asc', us)).toBe('Lowest miles');
    expect(new Set(SORT_OPTIONS.map((s) => sortLabel(s, au))).size).toBe(SORT_OPTIONS.length);
  });

  it('reads values as visitors expect', () => {
    expect(facetValueLabel('car_type', 'used', au)).toBe('Used');
    expect(facetValueLabel('car_type', 'used', us)).toBe('Pre-owned');
    expect(facetValueLabel('car_type', 'demo', us)).toBe('Demo');
    expect(facetValueLabel('make_model', 'Toyota:HiLux', au)).toBe('HiLux');
    expect(facetValueLabel('make', 'ŠKODA', au)).toBe('Škoda');
    expect(facetValueLabel('certified', 'true', au)).toBe('Certified');
    expect(facetValueLabel('certified', 'false', au)).toBe('Not certified');
    expect(facetValueLabel('colour', '<b>Red</b>', au)).toBe('<b>Red</b>');
    expect(makeDisplayName('Toyota')).toBe('Toyota');
    expect(facetValueLabel('simple_fuel', 'Petrol', us)).toBe('Gas');
    expect(facetValueLabel('simple_fuel', 'Petrol', au)).toBe('Petrol');
  });

  it('shows Škoda and Chery by their display names in car titles too (SPEC §3, issue 31)', () => {
    expect(carDisplayName('2021 ŠKODA Octavia 110TSI Style')).toBe('2021 Škoda Octavia 110TSI Style');
    expect(carDisplayName('2020 Skoda Kamiq')).toBe('2020 Škoda Kamiq');
    expect(carDisplayName('2022 CHERY NZ Tiggo 7 Pro')).toBe('2022 Chery Tiggo 7 Pro');
    expect(carDisplayName('2019 Toyota Corolla Ascent Sport')).toBe('2019 Toyota Corolla Ascent Sport');
    expect(carDisplayName('Skodaville Special')).toBe('Skodaville Special');
  });

  it('turns a default slug into a heading', () => {
    expect(headingFromSlug('new-used-and-demo-cars')).toBe('New, used and demo cars');
    expect(headingFromSlug('new-used-and-demo-trucks')).toBe('New, used and demo trucks');
    expect(headingFromSlug('used-cars-in-labrador')).toBe('Used cars in labrador');
  });
});
