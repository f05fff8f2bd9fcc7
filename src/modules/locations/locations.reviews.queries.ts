import 'server-only';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/db';
import { logger } from '@/lib/logger';
import type { Tenant } from '../tenancy/tenancy.types';
import { googlePlacesReviews } from './adapters/google-places-reviews';
import { localReviews, reviewsSummary, reviewsToShow, type Review, type ReviewsProvider } from './locations.reviews';
import { locations } from './locations.schema';

export type ReviewsBlockData = {
  reviews: Review[];
  /** All the dealer's locations' Google ratings together; null without any. */
  summary: { count: number; averageRating: number } | null;
  source: ReviewsProvider['name'];
};

/**
 * The reviews block's content for a website (decision 054): its provider's reviews, filtered and
 * ordered for showing, and the locations' rating summary. The Google provider needs
 * GOOGLE_PLACES_API_KEY; without it, or when Google fails or answers nothing, the dealer's own list.
 */
export async function getReviewsBlock(tenant: Tenant): Promise<ReviewsBlockData> {
  const db = await getDb();
  const rows = await db
    .select({ placeId: locations.placeId, count: locations.reviewsCount, averageRating: locations.reviewsAverageRating })
    .from(locations)
    .where(and(eq(locations.websiteId, tenant.id), eq(locations.visible, true)));
  const summary = reviewsSummary(rows.map((r) => ({ reviews: r.averageRating == null ? null : { count: r.count, averageRating: r.averageRating } })));
  const config = tenant.config.reviews;
  const local = localReviews(config);
  const key = process.env.GOOGLE_PLACES_API_KEY;
  let provider: ReviewsProvider = local;
  if (config.provider === 'google' && key) provider = googlePlacesReviews(key, rows.flatMap((r) => (r.placeId ? [r.placeId] : [])));
  let reviews: Review[];
  try {
    reviews = reviewsToShow(await provider.list(), config);
    if (!reviews.length && provider !== local) throw new Error('no reviews from Google');
  } catch (error) {
    logger.warn({ err: error, website: tenant.slug }, 'reviews provider failed; showing the dealer\'s own list');
    provider = local;
    reviews = reviewsToShow(await local.list(), config);
  }
  return { reviews, summary, source: provider.name };
}
