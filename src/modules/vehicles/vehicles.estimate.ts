/**
 * The market estimate from comparable listings (decision 027). Pure: the comparables come from
 * vehicles.queries.ts, the rules and figures are here.
 *
 * Each comparable (same make and model, within YEAR_WINDOW years, listed or sold lately, in the
 * website's own currency) is brought to the subject's year and kilometres:
 *   adjusted = price × (1 − YEARLY_DEPRECIATION)^(comparable year − subject year)
 *                    × (1 − KM_RATE × (subject km − comparable km) / 10,000)   (km factor 0.6–1.4)
 * The retail estimate is the median of the adjusted prices, its range the 25th–75th percentile;
 * the state figure the same over the comparables of the subject's state when there are enough.
 * The median keeps one odd listing from moving the figure. Too few comparables, or a subject far
 * outside their kilometres, give 'not enough data' rather than a guess.
 */

export const ESTIMATE_RULES = {
  /** Fewer comparables than this: not enough data. */
  minComparables: 3,
  yearWindow: 2,
  /** Share of value lost per year of age (the Australian used-car rule of thumb, 11–13 %). */
  yearlyDepreciation: 0.12,
  /** Share of value per 10,000 km of difference. */
  kmRate: 0.01,
  /** The subject's kilometres may be at most this far beyond the comparables' range. */
  kmReach: 60_000,
} as const;

export type Comparable = { price: number; year: number; km: number; state: string | null };
export type Subject = { year: number; km: number; state: string | null };
export type Range = { low: number; median: number; high: number };

export type Estimate =
  | { ok: true; retail: Range; tradeIn: Range; state: (Range & { comparables: number }) | null; comparables: number }
  | { ok: false; reason: 'not enough data'; comparables: number };

function round(value: number, to = 100): number {
  return Math.round(value / to) * to;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 1) return sorted[0];
  const position = (sorted.length - 1) * p;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

/** A comparable's price at the subject's year and kilometres. */
export function adjustedPrice(comparable: Comparable, subject: Subject, rules = ESTIMATE_RULES): number {
  const years = comparable.year - subject.year;
  const kmFactor = Math.min(1.4, Math.max(0.6, 1 - (rules.kmRate * (subject.km - comparable.km)) / 10_000));
  return comparable.price * (1 - rules.yearlyDepreciation) ** years * kmFactor;
}

function rangeOf(prices: number[]): Range {
  const sorted = [...prices].sort((a, b) => a - b);
  return { low: round(percentile(sorted, 0.25)), median: round(percentile(sorted, 0.5)), high: round(percentile(sorted, 0.75)) };
}

/**
 * The estimate for `subject` from `comparables`; `tradeInMargin` is the dealer's share (0.15 =
 * trade-in 15 % below retail).
 */
export function estimateFromComparables(subject: Subject, comparables: Comparable[], tradeInMargin: number, rules = ESTIMATE_RULES): Estimate {
  const usable = comparables.filter((c) => c.price > 0 && Math.abs(c.year - subject.year) <= rules.yearWindow);
  if (usable.length < rules.minComparables) return { ok: false, reason: 'not enough data', comparables: usable.length };
  const kms = usable.map((c) => c.km);
  if (subject.km > Math.max(...kms) + rules.kmReach || subject.km < Math.min(...kms) - rules.kmReach) {
    return { ok: false, reason: 'not enough data', comparables: usable.length };
  }
  const retail = rangeOf(usable.map((c) => adjustedPrice(c, subject, rules)));
  const keep = 1 - tradeInMargin;
  const tradeIn = { low: round(retail.low * keep), median: round(retail.median * keep), high: round(retail.high * keep) };
  const inState = subject.state ? usable.filter((c) => c.state === subject.state) : [];
  const state = inState.length >= rules.minComparables ? { ...rangeOf(inState.map((c) => adjustedPrice(c, subject, rules))), comparables: inState.length } : null;
  return { ok: true, retail, tradeIn, state, comparables: usable.length };
}
