import 'server-only';
import { and, eq, gte, inArray, or, sql, type SQL } from 'drizzle-orm';
import { generationsReadWith } from '@/modules/tenancy/tenancy.memo';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { cars } from '../stock.schema';
import { soldWindowMs } from '../stock.rules';
import type { SearchScope } from './search.types';

/** What a website's visitors may find at `now` (SPEC §4, §7, §9). */
export function scopeForTenant(tenant: Tenant, now: Date): SearchScope {
  const window = soldWindowMs(tenant.config);
  const { minPhotos, cities, makes } = tenant.config.search.defaultFilters;
  return {
    websiteIds: [tenant.id],
    soldSince: window > 0 ? new Date(now.getTime() - window) : null,
    minPhotos,
    cities,
    makes,
    defaultSort: tenant.config.search.defaultSort,
    websiteGeneration: generationsReadWith(tenant.id)?.website,
  };
}

/**
 * The cars a scope lists: its websites' cars shown on the dealer website that are in stock, coming
 * soon or sold since scope.soldSince, with the standing filters. The SQL twin of isVisible and
 * matchesDefaultFilters in stock.rules.ts.
 */
export function scopeWhere(scope: SearchScope): SQL {
  const available = inArray(cars.status, ['in_stock', 'coming_soon']);
  const conditions: SQL[] = [
    scope.websiteIds.length === 1 ? eq(cars.websiteId, scope.websiteIds[0]) : inArray(cars.websiteId, [...scope.websiteIds]),
    eq(cars.showOnDealerWebsite, true),
    scope.soldSince ? or(available, and(eq(cars.status, 'sold'), gte(cars.soldDate, scope.soldSince)))! : available,
  ];
  if (scope.minPhotos != null) conditions.push(gte(cars.photosCount, scope.minPhotos));
  // Both sides lowered in SQL, so the comparison is the same whatever the database's ctype.
  if (scope.cities.length > 0) conditions.push(lowerIn(cars.city, scope.cities));
  if (scope.makes.length > 0) conditions.push(lowerIn(cars.make, scope.makes));
  return and(...conditions)!;
}

function lowerIn(column: typeof cars.city | typeof cars.make, values: readonly string[]): SQL {
  return sql`lower(${column}) in (${sql.join(
    values.map((value) => sql`lower(${value})`),
    sql`, `,
  )})`;
}
