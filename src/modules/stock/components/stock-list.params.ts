import { z } from 'zod';

/** Query parameters and page links of the stock list. Pure and client-safe. */

export const MAX_Q_LENGTH = 200;
const MAX_PAGE = 10_000;

const firstValue = (value: unknown) => (Array.isArray(value) ? value[0] : value);

/** ?q= and ?page=: anything unusable falls back (no query, page 1), never an error. */
const searchParamsSchema = z.object({
  q: z
    .preprocess(firstValue, z.string().max(MAX_Q_LENGTH).optional())
    .catch(undefined)
    // Control characters (NUL included) are never part of a search.
    .transform((q) => q?.replace(/[\u0000-\u001f\u007f]/g, ' ').trim() || undefined),
  page: z.preprocess(firstValue, z.coerce.number().int().min(1).max(MAX_PAGE)).catch(1),
});

export function parseStockListSearchParams(input: Record<string, unknown>): { q?: string; page: number } {
  return searchParamsSchema.parse(input);
}

export function pageHref(path: string, q: string | undefined, page: number): string {
  const query = new URLSearchParams();
  if (q) query.set('q', q);
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** Page numbers around the current one, with the first and last: 1 … 4 5 [6] 7 8 … 20. */
export function pageWindow(page: number, pages: number, radius = 2): (number | 'gap')[] {
  const numbers = new Set<number>([1, pages]);
  for (let p = page - radius; p <= page + radius; p++) if (p >= 1 && p <= pages) numbers.add(p);
  const sorted = [...numbers].filter((p) => p >= 1).sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1] > 1) out.push('gap');
    out.push(p);
  });
  return out;
}


/** 'new-used-and-demo-trucks' → 'New, used and demo trucks'. */
export function headingFromSlug(slug: string): string {
  const words = slug.split('-').filter(Boolean).join(' ').replace(/^(\w+) (\w+) and /, '$1, $2 and ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
