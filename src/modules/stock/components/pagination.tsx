import Link from 'next/link';

// The page-link class of globals.css: a search page repeats it up to nine times, in its HTML and its RSC payload.
const linkClass = 'page-link';

/** Previous, numbered pages around the current one, next. Plain links: works without JavaScript. */
export function Pagination({ page, pages, hrefFor }: { page: number; pages: number; hrefFor: (page: number) => string }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-10">
      <ul className="flex flex-wrap items-center justify-center gap-2">
        {page > 1 ? (
          <li>
            <Link href={hrefFor(page - 1)} prefetch={false} rel="prev" className={linkClass}>
              <span aria-hidden="true">←&nbsp;</span>Previous
            </Link>
          </li>
        ) : null}
        {pageWindow(page, pages).map((p, i) =>
          p === 'gap' ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-slate-500">
              …
            </li>
          ) : (
            <li key={p}>
              {p === page ? (
                <span aria-current="page" className={`${linkClass} border-slate-900 bg-slate-900 text-white`}>
                  <span className="sr-only">Page </span>
                  {p}
                </span>
              ) : (
                <Link href={hrefFor(p)} prefetch={false} className={linkClass}>
                  <span className="sr-only">Page </span>
                  {p}
                </Link>
              )}
            </li>
          ),
        )}
        {page < pages ? (
          <li>
            <Link href={hrefFor(page + 1)} prefetch={false} rel="next" className={linkClass}>
              Next<span aria-hidden="true">&nbsp;→</span>
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
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
