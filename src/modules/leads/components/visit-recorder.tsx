'use client';

import { usePathname } from 'next/navigation';
import { useEffect } from 'react';
import { parseTrail, recordVisit, TRAIL_STORAGE_KEY, trailLeadFields } from '../leads.tracking';

/**
 * Keeps the visitor's trail (SPEC §4: visited pages, capped at 50, and the first page's tracking
 * query, reset by a new one or after 30 days) in this browser, for the lead forms to send. Renders
 * nothing; nothing leaves the browser until the visitor submits a form.
 */
export function VisitRecorder() {
  const pathname = usePathname();
  useEffect(() => {
    try {
      const now = Date.now();
      const trail = recordVisit(parseTrail(localStorage.getItem(TRAIL_STORAGE_KEY), now), window.location.pathname, window.location.search, now);
      localStorage.setItem(TRAIL_STORAGE_KEY, JSON.stringify(trail));
    } catch {
      // Storage blocked (private mode, full): the lead goes without a trail.
    }
  }, [pathname]);
  return null;
}

/** The trail's lead fields (visited_pages, linked_query_params) as stored in this browser. */
export function storedTrailFields(): ReturnType<typeof trailLeadFields> {
  try {
    return trailLeadFields(parseTrail(localStorage.getItem(TRAIL_STORAGE_KEY), Date.now()));
  } catch {
    return trailLeadFields(null);
  }
}
