import type { PageType } from './widgets.events.catalogue';

/** Client-safe path rules of the widget host (decision 037): which page type a path is, which widget it hides. */

/** What the browser needs to tell one page type from another, without asking the server. */
export type PageRoutes = { vehiclePath: string; garagePath: string };

/** A path prefix matches itself and what is below it (/cars hides /cars and /cars/x, not /carsales). */
export function isHiddenPath(pathname: string, hiddenPaths: readonly string[]): boolean {
  return hiddenPaths.some((prefix) => {
    const p = prefix.length > 1 ? prefix.replace(/\/+$/, '') : prefix;
    return pathname === p || pathname.startsWith(p.endsWith('/') ? p : `${p}/`);
  });
}

/** The page type of a path (PAGE_VIEW_EVENTS), by SPEC §2's routes; 'other' when unsure. */
export function pageTypeOf(pathname: string, routes: PageRoutes): PageType {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return 'home';
  if (path.startsWith('/search') || /^\/(used|new|demo|pre-owned)(-|\/|$)/.test(path.slice(0, 20))) return 'search';
  if (path.startsWith(`/${routes.vehiclePath}/`)) return 'car';
  if (path === routes.garagePath || path.startsWith(`${routes.garagePath}/`)) return 'garage';
  const first = path.split('/')[1] ?? '';
  if (/checkout|reserve|buy-online/.test(first)) return 'checkout';
  if (/trade-in|valuation|sell-my-car/.test(first)) return 'trade-in';
  if (/finance/.test(first)) return 'finance';
  if (/success|thank-you/.test(path)) return 'success';
  if (/service/.test(first)) return 'service';
  if (/test-drive/.test(first)) return 'test-drive';
  if (/contact/.test(first)) return 'contact';
  if (first === 'pages' || /about|privacy|terms|careers|news|blog/.test(first)) return 'content';
  return 'other';
}
