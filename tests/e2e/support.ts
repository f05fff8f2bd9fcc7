import { E2E_PORT } from '../../playwright.config';

export const DEMO_SLUGS = [
  'harbour-city-motors',
  'southern-cross-skoda',
  'outback-trucks',
  'coastline-motorcycles',
  'wanderer-rv',
  'gold-coast-used-cars',
  'kiwi-motors',
  'lone-star-auto',
] as const;

/** The site of a demo dealer, reached the way a visitor in development does: {slug}.localhost. */
export function siteUrl(slug: string, path = '/'): string {
  return `http://${slug}.localhost:${E2E_PORT}${path}`;
}

export const serverUrl = (path = '/') => `http://127.0.0.1:${E2E_PORT}${path}`;
