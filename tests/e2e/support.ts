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

/** Basic auth of the Dashboard API key tests/e2e/run.mjs creates for harbour-city-mazda. */
export function dashboardAuth(): string {
  const id = process.env.E2E_API_KEY_ID;
  const secret = process.env.E2E_API_SECRET;
  if (!id || !secret) throw new Error('tests/e2e/run.mjs creates the Dashboard API key: run the e2e tests through it');
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}
