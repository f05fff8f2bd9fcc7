import 'server-only';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { cars } from '../stock.schema';
import { soldWindowMs } from '../stock.rules';
import { scopePredicate } from './search.definition';
import { toSql } from './search.sql';
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
  };
}

/**
 * The cars a scope lists: its websites' cars shown on the dealer website that scopePredicate lists
 * (search.definition.ts: in stock, coming soon or sold since scope.soldSince, with the standing
 * filters). The SQL twin of isVisible and matchesDefaultFilters in stock.rules.ts.
 */
export function scopeWhere(scope: SearchScope): SQL {
  return and(
    scope.websiteIds.length === 1 ? eq(cars.websiteId, scope.websiteIds[0]) : inArray(cars.websiteId, [...scope.websiteIds]),
    eq(cars.showOnDealerWebsite, true),
    toSql(scopePredicate(scope), scope),
  )!;
}
