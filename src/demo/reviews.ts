import type { WebsiteConfigInput } from '@/modules/tenancy/tenancy.config';
import type { SiteSeed } from './sites';

/**
 * The demo dealers' own review lists (decision 054: the reviews block's local default reads them
 * from the website's configuration). Fourteen per dealer, a few below the four-star minimum so the
 * block's filter has something to leave out; dates count back from the seed's `now`, so they stay
 * recent. A dealer that configures its own list keeps it.
 */

const TEXTS: readonly [rating: number, text: string][] = [
  [5, 'Straightforward from the first call to driving away. {who} answered every question and never pushed.'],
  [5, 'Great range in the yard and honest advice. The vehicle was detailed and ready the day they promised.'],
  [4, 'Good experience overall. Paperwork took a little longer than expected, but the team kept me updated.'],
  [5, 'Traded in my old vehicle and got a fair figure without any haggling. Would buy here again.'],
  [5, 'The test drive was booked within the hour and the vehicle was waiting out front when I arrived.'],
  [3, 'Friendly staff, but I waited a while on a Saturday morning before anyone was free.'],
  [5, 'Finance was sorted on the spot and the repayments were exactly what they quoted on the website.'],
  [4, 'Clear pricing and no surprises at pick-up. Follow-up call a week later was a nice touch.'],
  [5, 'Second purchase from {who}. Same easy process, same helpful people.'],
  [5, 'They found the exact model I was after and had it brought over from their other yard in two days.'],
  [2, 'The vehicle was great but the handover felt rushed.'],
  [5, 'Reserved online with a deposit in the evening and had a call first thing the next morning. Very smooth.'],
  [4, 'Knowledgeable sales team who took the time to explain the service history properly.'],
  [5, 'Couldn’t fault them. Fair price, quick delivery and everything explained clearly.'],
];

const AUTHORS: readonly string[] = [
  'Sarah M.', 'James T.', 'Priya K.', 'Tom W.', 'Mei L.', 'Daniel R.', 'Aroha P.', 'Luke B.', 'Grace H.', 'Michael D.', 'Chloe S.', 'Ben O.', 'Hannah F.', 'Ravi N.', 'Emily C.', 'Jack G.',
];

const DAY_MS = 86_400_000;

/** The site's configuration with its demo reviews, unless it has reviews of its own. */
export function withDemoReviews(site: Pick<SiteSeed, 'id' | 'name' | 'config'>, now: Date): WebsiteConfigInput {
  if (site.config.reviews?.items?.length) return site.config;
  const offset = site.id % AUTHORS.length;
  const items = TEXTS.map(([rating, text], index) => ({
    author: AUTHORS[(index + offset) % AUTHORS.length]!,
    rating,
    text: text.replace('{who}', site.name),
    date: new Date(now.getTime() - (index * 9 + (site.id % 5) + 2) * DAY_MS).toISOString().slice(0, 10),
  }));
  return { ...site.config, reviews: { ...site.config.reviews, items } };
}
