import { formatDate } from '@/lib/format';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { ratingText, type Review } from '../locations.reviews';
import { getReviewsBlock } from '../locations.reviews.queries';

/**
 * The reviews block (SPEC §2/§4, decision 054): up to 12 reviews of 4 stars and up, with the
 * dealer's Google rating. Server-rendered HTML and CSS only: no JavaScript of its own (decision
 * 033's budget). One column on a phone, two from 640 px, three from 1024 px. Renders nothing
 * when there is no review to show.
 */

function Stars({ rating }: { rating: number }) {
  return (
    <p className="flex items-center gap-0.5 text-lg leading-none" role="img" aria-label={`Rated ${rating} out of 5`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <span key={n} aria-hidden="true" className={n <= rating ? 'text-amber-500' : 'text-slate-300'}>
          ★
        </span>
      ))}
    </p>
  );
}

function ReviewCard({ review, locale }: { review: Review; locale: Tenant['config']['locale'] }) {
  return (
    <li className="flex flex-col gap-3 rounded-site border border-slate-200 bg-white p-5 shadow-sm" data-review>
      <Stars rating={review.rating} />
      <blockquote className="grow text-slate-800">
        <p className="break-words">{review.text}</p>
      </blockquote>
      <p className="text-sm text-slate-600">
        <span className="font-semibold text-slate-900">{review.author}</span>
        <span aria-hidden="true"> · </span>
        <span className="sr-only">, </span>
        {/* A calendar day: written as that day wherever the website is (UTC, not shifted by a zone). */}
        <time dateTime={review.date}>{formatDate({ locale, timeZone: 'UTC' }, `${review.date}T00:00:00Z`)}</time>
      </p>
    </li>
  );
}

export async function ReviewsBlock({ tenant }: { tenant: Tenant }) {
  const { reviews, summary, source } = await getReviewsBlock(tenant);
  if (!reviews.length) return null;
  const { locale } = tenant.config;
  const headingId = 'reviews-heading';
  return (
    <section aria-labelledby={headingId} className="bg-slate-50" data-reviews-source={source}>
      <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
        <div className="mb-6 flex flex-wrap items-end justify-between gap-x-6 gap-y-2">
          <h2 id={headingId} className="text-2xl font-bold text-slate-900 sm:text-3xl">
            {source === 'google' ? 'Google reviews' : 'What our customers say'}
          </h2>
          {summary ? (
            <p className="text-slate-700" data-reviews-summary>
              <span aria-hidden="true" className="text-amber-500">
                ★{' '}
              </span>
              {ratingText(summary, locale)} on Google
            </p>
          ) : null}
        </div>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Customer reviews">
          {reviews.map((review, index) => (
            <ReviewCard key={`${review.date}-${review.author}-${index}`} review={review} locale={locale} />
          ))}
        </ul>
      </div>
    </section>
  );
}
