import { describe, expect, it } from 'vitest';
import { parseWebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { localReviews, ratingText, reviewsSummary, reviewsToShow, type Review } from './locations.reviews';
import { googlePlacesReviews, ReviewsUnavailableError } from './adapters/google-places-reviews';

const review = (rating: number, date: string, author = 'A'): Review => ({ author, rating, text: `${rating} stars`, date });

describe('the reviews block (SPEC §9: Google reviews shown 12, minimum rating 4)', () => {
  it('shows 12 reviews of 4 stars and up, newest first, by default', async () => {
    const config = parseWebsiteConfig({}).reviews;
    expect(config).toMatchObject({ provider: 'local', shown: 12, minRating: 4, items: [] });
    const many = Array.from({ length: 20 }, (_, i) => review(i % 4 === 0 ? 3 : 5, `2026-${String((i % 9) + 1).padStart(2, '0')}-${String(i + 1).padStart(2, '0')}`, `P${i}`));
    const shown = reviewsToShow(many, config);
    expect(shown).toHaveLength(12);
    expect(shown.every((r) => r.rating >= 4)).toBe(true);
    expect(shown.map((r) => r.date)).toEqual([...shown.map((r) => r.date)].sort().reverse());
    expect(reviewsToShow([review(3, '2026-01-01'), review(4, '2025-01-01')], config).map((r) => r.rating)).toEqual([4]);
  });

  it("reads the dealer's own list from the configuration (the local default), refusing malformed entries", async () => {
    const config = parseWebsiteConfig({ reviews: { items: [{ author: ' Jo ', rating: 5, text: ' Great. ', date: '2026-11-01' }] } }).reviews;
    expect(await localReviews(config).list()).toEqual([{ author: 'Jo', rating: 5, text: 'Great.', date: '2026-11-01' }]);
    expect(() => parseWebsiteConfig({ reviews: { items: [{ author: 'Jo', rating: 6, text: 'x', date: '2026-11-01' }] } })).toThrow();
    expect(() => parseWebsiteConfig({ reviews: { items: [{ author: 'Jo', rating: 5, text: 'x', date: '1 Nov 2026' }] } })).toThrow();
  });

  it('sums the locations\' Google ratings into one, weighted by their counts', () => {
    expect(reviewsSummary([{ reviews: { count: 300, averageRating: 4.8 } }, { reviews: { count: 100, averageRating: 4.0 } }, { reviews: null }])).toEqual({ count: 400, averageRating: 4.6 });
    expect(reviewsSummary([{ reviews: null }])).toBeNull();
    expect(ratingText({ count: 1284, averageRating: 4.7 }, 'en-AU')).toBe('4.7 out of 5 from 1,284 reviews');
  });
});

describe('Google Places reviews adapter (decision 054)', () => {
  const answer = {
    reviews: [
      { rating: 5, text: { text: 'Translated' }, originalText: { text: 'Great service' }, authorAttribution: { displayName: 'Kim' }, publishTime: '2026-10-02T03:04:05.123Z' },
      { rating: 4, text: { text: 'Good' }, publishTime: '2026-09-01T00:00:00Z' },
      { rating: 5, publishTime: '2026-08-01T00:00:00Z' },
    ],
  };

  it("asks for each location's place with the reviews field mask and maps Google's answer", async () => {
    const asked: { url: string; headers: Record<string, string> }[] = [];
    const fake = (async (url: string, init: RequestInit) => {
      asked.push({ url, headers: init.headers as Record<string, string> });
      return new Response(JSON.stringify(answer), { status: 200 });
    }) as unknown as typeof fetch;
    const reviews = await googlePlacesReviews('key-1', ['ChIJ1', 'ChIJ/2'], { fetch: fake }).list();
    expect(asked.map((a) => a.url)).toEqual(['https://places.googleapis.com/v1/places/ChIJ1', 'https://places.googleapis.com/v1/places/ChIJ%2F2']);
    expect(asked[0].headers).toMatchObject({ 'X-Goog-Api-Key': 'key-1', 'X-Goog-FieldMask': 'reviews' });
    // A review without text is left out; the original text is preferred to Google's translation.
    expect(reviews.slice(0, 2)).toEqual([
      { author: 'Kim', rating: 5, text: 'Great service', date: '2026-10-02' },
      { author: 'A Google user', rating: 4, text: 'Good', date: '2026-09-01' },
    ]);
    expect(reviews).toHaveLength(4);
  });

  it('fails as unavailable on an HTTP error, a bad body or no place id (the block then shows the local list)', async () => {
    const status = (async () => new Response('{}', { status: 403 })) as unknown as typeof fetch;
    await expect(googlePlacesReviews('k', ['p'], { fetch: status }).list()).rejects.toBeInstanceOf(ReviewsUnavailableError);
    const garbage = (async () => new Response('{"reviews": "no"}', { status: 200 })) as unknown as typeof fetch;
    await expect(googlePlacesReviews('k', ['p'], { fetch: garbage }).list()).rejects.toBeInstanceOf(ReviewsUnavailableError);
    await expect(googlePlacesReviews('k', []).list()).rejects.toBeInstanceOf(ReviewsUnavailableError);
  });
});
