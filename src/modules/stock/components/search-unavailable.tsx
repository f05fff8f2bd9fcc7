import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { buttonClasses } from '@/components/ui/button';
import { SEARCH_MESSAGES } from '../search/search.labels';

/** The search screen when the stock cannot be read: what happened, and two ways forward. */
export function SearchUnavailable({ tenant, heading }: { tenant: Pick<Tenant, 'phone'>; heading: string }) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-12 text-center sm:px-6">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{heading}</h1>
      <div role="alert" className="mt-8 rounded-site border border-amber-300 bg-amber-50 p-6">
        <p className="text-lg font-semibold text-slate-900">{SEARCH_MESSAGES.unavailableTitle}</p>
        <p className="mt-2 text-slate-800">{SEARCH_MESSAGES.unavailableBody}</p>
        <div className="mt-5 flex flex-wrap justify-center gap-3">
          <a href="" className={buttonClasses('primary', 'md')}>
            Try again
          </a>
          {tenant.phone ? (
            <a href={`tel:${tenant.phone.replace(/[^+\d]/g, '')}`} className={buttonClasses('outline', 'md')}>
              Call {tenant.phone}
            </a>
          ) : null}
        </div>
      </div>
    </div>
  );
}
