/**
 * The visitor's trail kept in the browser (SPEC §4, §9): the pages visited (last 50) and the query
 * of the first page (tracking parameters), both reset when a new tracking query arrives or after
 * 30 days. Pure functions over a stored value, so the layout and the forms share one rule; the
 * lead carries the result as visited_pages and linked_query_params.
 */

export const VISITED_PAGES_LIMIT = 50;
export const TRAIL_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
export const TRAIL_STORAGE_KEY = 'lead-trail';

/** Parameters that say where a visitor came from (a new one starts a new trail). */
const TRACKING_PARAMS = /^(utm_[a-z_]+|gclid|fbclid|msclkid|dclid|gbraid|wbraid|ref|source)$/i;

export type VisitorTrail = { startedAt: number; firstPageQuery: Record<string, string>; visitedPages: string[] };

function trackingQuery(search: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    if (TRACKING_PARAMS.test(key) && Object.keys(query).length < 50) query[key] = value.slice(0, 500);
  }
  return query;
}

/** The trail after a page view of `path` + `search` at `now`; starts afresh when expired or on a new tracking query. */
export function recordVisit(trail: VisitorTrail | null, path: string, search: string, now: number): VisitorTrail {
  const query = trackingQuery(search);
  const fresh = !trail || now - trail.startedAt > TRAIL_MAX_AGE_MS || Object.keys(query).length > 0;
  const base: VisitorTrail = fresh ? { startedAt: now, firstPageQuery: query, visitedPages: [] } : trail;
  const page = `${path}${search}`.slice(0, 2048);
  return { ...base, visitedPages: [...base.visitedPages, page].slice(-VISITED_PAGES_LIMIT) };
}

/** A stored trail read back, or null when absent, malformed or expired. */
export function parseTrail(stored: string | null, now: number): VisitorTrail | null {
  if (!stored) return null;
  try {
    const value = JSON.parse(stored) as Partial<VisitorTrail>;
    if (typeof value.startedAt !== 'number' || !Array.isArray(value.visitedPages) || typeof value.firstPageQuery !== 'object' || !value.firstPageQuery) return null;
    if (now - value.startedAt > TRAIL_MAX_AGE_MS) return null;
    return {
      startedAt: value.startedAt,
      firstPageQuery: Object.fromEntries(Object.entries(value.firstPageQuery).filter(([, v]) => typeof v === 'string')) as Record<string, string>,
      visitedPages: value.visitedPages.filter((p): p is string => typeof p === 'string').slice(-VISITED_PAGES_LIMIT),
    };
  } catch {
    return null;
  }
}

/** The lead fields of a trail. */
export function trailLeadFields(trail: VisitorTrail | null): { visited_pages: string[]; linked_query_params: Record<string, string> } {
  return { visited_pages: trail?.visitedPages ?? [], linked_query_params: trail?.firstPageQuery ?? {} };
}
