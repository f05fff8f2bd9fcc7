/**
 * Query parameters that say where a visitor came from (ad clicks, campaigns). Pure and client-safe:
 * the lead trail keeps them (leads.tracking.ts); no page renders differently for them.
 */
export const TRACKING_PARAMS = /^(utm_[a-z_]+|gclid|fbclid|msclkid|dclid|gbraid|wbraid|ref|source)$/i;

/**
 * The path and query without tracking parameters, the others in their order and encoded one way
 * (price[max] and price%5Bmax%5D are the same parameter).
 */
export function withoutTrackingParams(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const kept = new URLSearchParams([...new URLSearchParams(url.slice(at + 1))].filter(([key]) => !TRACKING_PARAMS.test(key)));
  return kept.size > 0 ? `${url.slice(0, at)}?${kept}` : url.slice(0, at);
}
