import Link from 'next/link';
import type { ReactNode } from 'react';
import { Container } from './container';

export type Crumb = { label: string; href?: string };

type Props = {
  title: ReactNode;
  /** Short text under the title. */
  lead?: ReactNode;
  /** Trail above the title; the current page (last, without href) is marked aria-current. */
  breadcrumbs?: Crumb[];
  children?: ReactNode;
};

/** The title band of an inner page: breadcrumbs, the page's h1, a brand rule and an optional lead. */
export function PageHeader({ title, lead, breadcrumbs, children }: Props) {
  return (
    <div className="border-b border-gray-200 bg-gray-50">
      <Container className="py-8 md:py-12">
        {breadcrumbs && breadcrumbs.length > 0 ? (
          <nav aria-label="Breadcrumb" className="mb-4 text-sm">
            <ol className="flex flex-wrap items-center gap-1.5 text-gray-600">
              {breadcrumbs.map((crumb, index) => (
                <li key={`${crumb.label}-${index}`} className="flex items-center gap-1.5">
                  {index > 0 ? <span aria-hidden="true">/</span> : null}
                  {crumb.href ? (
                    <Link href={crumb.href} prefetch={false} className="rounded-sm hover:text-gray-900 hover:underline">
                      {crumb.label}
                    </Link>
                  ) : (
                    <span aria-current="page" className="font-medium text-gray-900">
                      {crumb.label}
                    </span>
                  )}
                </li>
              ))}
            </ol>
          </nav>
        ) : null}
        <h1 className="text-3xl leading-tight font-extrabold tracking-tight text-balance text-gray-900 md:text-4xl">
          {title}
        </h1>
        <div aria-hidden="true" className="mt-4 h-1 w-16 rounded-full bg-brand" />
        {lead ? <div className="mt-4 max-w-3xl text-lg text-gray-700">{lead}</div> : null}
        {children}
      </Container>
    </div>
  );
}
