import 'server-only';
import { z } from 'zod';
import type { Review, ReviewsProvider } from '../locations.reviews';

/**
 * Google Places API (New) reviews (decision 054): GET places/{place_id} with the field mask
 * 'reviews', for each of the dealer's locations that has a place id. Google answers at most five
 * reviews per place, the ones it deems most relevant. Used only when the website's reviews
 * provider is 'google' and GOOGLE_PLACES_API_KEY is set; any failure falls back to the dealer's own
 * list (locations.reviews.queries.ts).
 */

const placeSchema = z.object({
  reviews: z
    .array(
      z.object({
        rating: z.number().int().min(1).max(5),
        text: z.object({ text: z.string() }).optional(),
        originalText: z.object({ text: z.string() }).optional(),
        authorAttribution: z.object({ displayName: z.string() }).optional(),
        publishTime: z.string(),
      }),
    )
    .default([]),
});

export class ReviewsUnavailableError extends Error {}

export function googlePlacesReviews(apiKey: string, placeIds: readonly string[], options: { fetch?: typeof fetch; timeoutMs?: number; endpoint?: string } = {}): ReviewsProvider {
  const doFetch = options.fetch ?? fetch;
  const endpoint = options.endpoint ?? 'https://places.googleapis.com/v1/places/';
  async function place(placeId: string): Promise<Review[]> {
    let body: unknown;
    try {
      const response = await doFetch(`${endpoint}${encodeURIComponent(placeId)}`, {
        headers: { 'X-Goog-Api-Key': apiKey, 'X-Goog-FieldMask': 'reviews' },
        signal: AbortSignal.timeout(options.timeoutMs ?? 3000),
      });
      if (!response.ok) throw new ReviewsUnavailableError(`places answered HTTP ${response.status}`);
      body = await response.json();
    } catch (error) {
      if (error instanceof ReviewsUnavailableError) throw error;
      throw new ReviewsUnavailableError(`places request failed: ${(error as Error).message}`);
    }
    const parsed = placeSchema.safeParse(body);
    if (!parsed.success) throw new ReviewsUnavailableError('places answered an unexpected body');
    return parsed.data.reviews.flatMap((r) => {
      const text = (r.originalText?.text ?? r.text?.text ?? '').trim();
      const date = r.publishTime.slice(0, 10);
      if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return [];
      return [{ author: r.authorAttribution?.displayName?.trim() || 'A Google user', rating: r.rating, text, date }];
    });
  }
  return {
    name: 'google',
    async list() {
      if (!placeIds.length) throw new ReviewsUnavailableError('no location has a Google place id');
      return (await Promise.all(placeIds.map(place))).flat();
    },
  };
}
