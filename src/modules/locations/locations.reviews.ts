import { numberFormat } from '@/lib/intl';
import type { WebsiteConfig } from '../tenancy/tenancy.config';

/**
 * The reviews block (SPEC §2/§4 Google reviews; §9: 12 shown, minimum rating 4; decision 054).
 * Reviews come through a provider chosen by the website's configuration: 'local', the dealer's own
 * list in the configuration (the default, so the block works offline), or 'google', the Google
 * Places API for the dealer's locations (adapters/google-places-reviews.ts). Pure and client-safe.
 */

export type Review = { author: string; rating: number; text: string; date: string };

export interface ReviewsProvider {
  readonly name: 'local' | 'google';
  list(): Promise<Review[]>;
}

export type ReviewsConfig = WebsiteConfig['reviews'];

/** The local default: the dealer's own list, as configured. */
export function localReviews(config: ReviewsConfig): ReviewsProvider {
  return { name: 'local', list: async () => config.items.map(({ author, rating, text, date }) => ({ author, rating, text, date })) };
}

/** What the block shows: the minimum rating up, newest first, at most `shown` (SPEC §9: 4 and 12). */
export function reviewsToShow(reviews: readonly Review[], config: Pick<ReviewsConfig, 'minRating' | 'shown'>): Review[] {
  return reviews
    .filter((review) => review.rating >= config.minRating)
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))
    .slice(0, config.shown);
}

/** The average and count over the dealer's locations' ratings (each as Google gave it), or null. */
export function reviewsSummary(locations: readonly { reviews: { count: number; averageRating: number } | null }[]): { count: number; averageRating: number } | null {
  let count = 0;
  let total = 0;
  for (const { reviews } of locations) {
    if (!reviews) continue;
    count += reviews.count;
    total += reviews.count * reviews.averageRating;
  }
  return count > 0 ? { count, averageRating: Math.round((total / count) * 10) / 10 } : null;
}

/** '4.7 out of 5 from 1,284 reviews' */
export function ratingText(reviews: { count: number; averageRating: number }, locale: string): string {
  const count = numberFormat(locale).format(reviews.count);
  return `${reviews.averageRating.toFixed(1)} out of 5 from ${count} review${reviews.count === 1 ? '' : 's'}`;
}
