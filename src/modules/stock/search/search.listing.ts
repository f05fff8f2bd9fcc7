import 'server-only';
import { cache } from 'react';
import { and, asc, eq, sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { slugify } from '@/lib/slug';
import { spell } from '@/lib/format';
import { dealerships, searchPages } from '@/modules/tenancy/tenancy.schema';
import { memoWhileWebsiteUnchanged } from '@/modules/tenancy/tenancy.memo';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { cars } from '../stock.schema';
import { carTypeFromSearchSlug, conditionLabel, vehicleNoun } from '../stock.rules';
import type { CarType } from '../stock.types';
import { headingFromSlug, makeDisplayName } from './search.labels';
import { scopeWhere, scopeForTenant } from './search.scope';
import { MAKE_MODEL_SEPARATOR, type SearchFilters, type TermFacet } from './search.types';

/**
 * Which stock a search URL lists (SPEC §2): /search/{slug} where slug is the website's default
 * slug, a car-type segment (used-cars, new-cars, demo-cars), a search page of the website (e.g.
 * used-cars/toyota/hilux, its title and heading from the database), a dealership's slug ('see
 * more from this dealer'), or a car-type segment followed by a make and model of its stock.
 */
export type SearchListing = {
  /** The page's own path, its canonical URL. */
  path: string;
  title: string;
  heading: string;
  description: string;
  /** Filters the path sets; the visitor's filters cannot change them. */
  preset: SearchFilters;
  /** Facets the preset decides, so the sidebar leaves them out. */
  presetFacets: TermFacet[];
};

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function presetFrom(filters: Record<string, string[]>): Pick<SearchListing, 'preset' | 'presetFacets'> {
  const preset: SearchFilters = {};
  const carTypes = filters.car_type ?? [];
  const makes = filters.make ?? [];
  const models = filters.model ?? [];
  if (carTypes.length > 0) preset.car_type = carTypes;
  if (makes.length > 0) preset.make = makes;
  if (makes.length === 1 && models.length > 0) preset.make_model = models.map((m) => `${makes[0]}${MAKE_MODEL_SEPARATOR}${m}`);
  if (filters.dealership_name?.length) preset.dealership_name = filters.dealership_name;
  const presetFacets: TermFacet[] = [];
  if (preset.car_type) presetFacets.push('car_type');
  if (preset.make) presetFacets.push('make');
  if (preset.make_model) presetFacets.push('make_model');
  if (preset.dealership_name) presetFacets.push('dealership_name');
  return { preset, presetFacets };
}

/** Makes and models of the website's listed stock, for make/model landing paths (and the sitemap). */
export const listedMakesAndModels = cache(async (tenant: Tenant) => {
  const db = await getDb();
  return db
    .selectDistinct({ make: cars.make, model: cars.model })
    .from(cars)
    .where(scopeWhere(scopeForTenant(tenant, new Date())))
    .orderBy(asc(cars.make), asc(cars.model));
});

/**
 * The listing of a search path. The page and its metadata each pass their own copy of the
 * segments, so the per-request cache is keyed by the path they spell.
 */
export async function resolveSearchListing(tenant: Tenant, segments: string[]): Promise<SearchListing | null> {
  if (segments.length === 0 || segments.length > 3) return null;
  // No listing path has a control character, and PostgreSQL refuses a NUL in a text parameter.
  if (segments.some((segment) => /[\u0000-\u001f\u007f]/.test(segment))) return null;
  return resolveListingOfSegments(tenant, segments.join('\n'));
}

const resolveListingOfSegments = cache(async (tenant: Tenant, joined: string): Promise<SearchListing | null> => {
  const { config } = tenant;
  const segments = joined.split('\n');
  const slug = segments.map((s) => s.toLowerCase()).join('/');
  const noun = vehicleNoun(config);
  const place = tenant.overrideCity ?? tenant.city;
  const db = await getDb();

  const [page] = await memoWhileWebsiteUnchanged(tenant, `search-page\n${slug}`, () =>
    db
      .select()
      .from(searchPages)
      .where(and(eq(searchPages.websiteId, tenant.id), eq(searchPages.slug, slug)))
      .limit(1),
  );
  if (page) {
    return {
      path: `/search/${slug}`,
      title: page.title,
      heading: page.heading,
      description: page.description,
      ...presetFrom(page.filters),
    };
  }

  const [first, makeSlug, modelSlug] = segments.map((s, i) => (i === 0 ? s.toLowerCase() : slugify(s)));
  if (segments.slice(1).some((s) => slugify(s) === '')) return null;
  const allStockSlug = config.search.allStockPath?.replace(/^\/+/, '');
  const carType: CarType | null = carTypeFromSearchSlug(first);
  const isAllStock = first === config.search.defaultSlug || first === allStockSlug;

  if (!carType && !isAllStock) {
    if (segments.length !== 1) return null;
    const [dealership] = await memoWhileWebsiteUnchanged(tenant, `dealership\n${first}`, () =>
      db
        .select({ name: dealerships.name })
        .from(dealerships)
        .where(and(eq(dealerships.websiteId, tenant.id), sql`lower(${dealerships.slug}) = ${first}`))
        .limit(1),
    );
    if (!dealership) return null;
    return {
      path: `/search/${first}`,
      title: spell(config, `${capitalise(noun)} at ${dealership.name}`),
      heading: spell(config, `${capitalise(noun)} at ${dealership.name}`),
      description: `See more from ${dealership.name}: every vehicle in stock.`,
      ...presetFrom({ dealership_name: [dealership.name] }),
    };
  }

  const typeWord = carType ? capitalise(conditionLabel(carType, config)) : '';
  let make: string | undefined;
  let model: string | undefined;
  if (makeSlug) {
    const stock = await listedMakesAndModels(tenant);
    make = stock.find((row) => slugify(row.make) === makeSlug)?.make;
    if (!make) return null;
    if (modelSlug) {
      model = stock.find((row) => row.make === make && slugify(row.model) === modelSlug)?.model;
      if (!model) return null;
    }
  }
  const base = carType ? `${typeWord} ${noun}` : headingFromSlug(first);
  const heading = make
    ? [typeWord, makeDisplayName(make), model, carType ? '' : noun].filter(Boolean).join(' ')
    : base;
  return {
    path: `/search/${[first, makeSlug, modelSlug].slice(0, make ? (model ? 3 : 2) : 1).join('/')}`,
    title: spell(config, `${heading} for sale${place ? ` in ${place}` : ''}`),
    heading: spell(config, heading),
    description: spell(config, `${heading} for sale at ${tenant.name}${place ? `, ${place}` : ''}.`),
    ...presetFrom({
      ...(carType && { car_type: [carType] }),
      ...(make && { make: [make] }),
      ...(model && { model: [model] }),
    }),
  };
});
