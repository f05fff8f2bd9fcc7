import type { Metadata } from 'next';

/** Route helpers of the finance pages (pure), kept apart from their components so a route can ask without loading them. */

export type FinanceQuery = Record<string, string | string[] | undefined>;

export const FINANCE_METADATA: Metadata = {
  title: 'Car Finance',
  description: 'Apply for car finance online in about five minutes, with an instant estimate and no impact on your credit score.',
};
