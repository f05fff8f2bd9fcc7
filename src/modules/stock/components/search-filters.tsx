'use client';

import { buttonClasses } from '@/components/ui/button';
import { StaticMarkup } from '@/components/ui/static-markup';
import type { FilterOption, RangeFacetGroup, SidebarGroup } from '../search/search.view';
import { MAX_QUERY_LENGTH } from '../search/search.text';
import { APPLY_ON_CHANGE_ATTRIBUTE } from '@/lib/apply-on-change';

export const FILTER_FORM_ID = 'search-filters';
export const FILTER_DRAWER_ID = 'search-filters-open';

function Count({ n }: { n: number }) {
  return (
    <span className="facet-count">
      <span aria-hidden="true">{n}</span>
      <span className="sr-only">{`, ${n} results`}</span>
    </span>
  );
}

/** One checkbox, inside its label (no id needed); styles are the facet classes of globals.css. */
function Option({ name, option }: { name: string; option: FilterOption }) {
  const label = option.label ?? option.value;
  return (
    <li>
      <label className="facet-option">
        <input type="checkbox" name={name} value={option.value} defaultChecked={option.selected} />
        <span>{label}</span>
        <Count n={option.count} />
      </label>
      {option.models && option.models.length > 0 ? (
        <ul aria-label={`${label} models`} className="facet-models">
          {option.models.map((model) => (
            <Option key={model.value} name="make_model" option={model} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function RangeInputs({ group }: { group: RangeFacetGroup }) {
  const step = group.unit === 'money' ? 500 : group.unit === 'distance' ? 1000 : 1;
  const input = (bound: 'min' | 'max') => {
    const id = `f-${group.facet}-${bound}`;
    const hint = group.bounds?.[bound];
    return (
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <label htmlFor={id} className="text-sm text-slate-600">
          {bound === 'min' ? 'From' : 'To'}
        </label>
        <input
          id={id}
          name={`${group.facet}_${bound}`}
          type="number"
          inputMode="numeric"
          min={0}
          step={step}
          defaultValue={group[bound] ?? ''}
          placeholder={hint != null ? String(hint) : bound === 'min' ? 'Min' : 'Max'}
          className="min-h-11 w-full rounded-site border border-slate-400 px-2 text-base text-slate-900"
        />
      </div>
    );
  };
  return (
    <div className="flex gap-2">
      {input('min')}
      {input('max')}
    </div>
  );
}

/**
 * The filter sidebar: one GET form, so it works without JavaScript (the 'Show results' button
 * submits it); with JavaScript each change applies at once, from the first tap (the page's
 * apply-on-change script, then SearchFormEnhancer's client navigation). On phones it is a
 * drawer opened by the 'Filters' control, a checkbox so that it also opens without JavaScript.
 * A client component only so that the page's RSC payload carries the facet data, not the markup
 * of every option again; it has no state.
 */
export function SearchFilters({
  action,
  groups,
  q,
  total,
  noun,
  activeCount,
  clearHref,
  stateKey,
  defaultSort,
}: {
  action: string;
  groups: SidebarGroup[];
  q?: string;
  total: number;
  noun: string;
  activeCount: number;
  clearHref: string;
  /** The URL state: a new state renders a new form, so its controls show that state. */
  stateKey: string;
  /** Left out of the URL a change builds, as the server's own links leave it out. */
  defaultSort: string;
}) {
  return (
    <>
      <input type="checkbox" id={FILTER_DRAWER_ID} className="peer sr-only lg:hidden" aria-controls="search-filter-panel" />
      <label
        htmlFor={FILTER_DRAWER_ID}
        className={buttonClasses('outline', 'md', 'w-full cursor-pointer peer-focus-visible:ring-2 peer-focus-visible:ring-brand lg:hidden')}
      >
        Filters{activeCount > 0 ? ` (${activeCount})` : ''}
      </label>
      <div
        id="search-filter-panel"
        className="fixed inset-0 z-50 hidden flex-col bg-white peer-checked:flex lg:static lg:z-auto lg:flex lg:bg-transparent"
      >
        <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3 lg:hidden">
          <p className="text-lg font-bold text-slate-900">Filters</p>
          <label htmlFor={FILTER_DRAWER_ID} className={buttonClasses('ghost', 'sm', 'cursor-pointer')}>
            Close<span className="sr-only"> filters</span>
          </label>
        </div>
        <StaticMarkup
          as="form"
          key={stateKey}
          id={FILTER_FORM_ID}
          action={action}
          method="get"
          {...{ [APPLY_ON_CHANGE_ATTRIBUTE]: '', 'data-default-sort': defaultSort }}
          aria-label="Filter stock"
          className="flex-1 overflow-y-auto px-4 pb-28 pt-2 lg:overflow-visible lg:px-0 lg:pb-0"
        >
          <div className="border-b border-slate-200 py-3">
            <label htmlFor="f-q" className="text-sm font-semibold text-slate-900">
              Keyword
            </label>
            <input
              id="f-q"
              name="q"
              type="search"
              defaultValue={q ?? ''}
              maxLength={MAX_QUERY_LENGTH}
              placeholder="Make, model or stock number"
              className="mt-1 min-h-11 w-full rounded-site border border-slate-400 px-3 text-base text-slate-900"
            />
          </div>
          {groups.map((group) => (
            <details key={group.facet} open className="facet-group group">
              <summary>
                {group.label}
                <span aria-hidden="true">▾</span>
              </summary>
              <fieldset className="mt-2 min-w-0">
                <legend className="sr-only">{group.label}</legend>
                {group.kind === 'term' ? (
                  <ul className={group.options.length > 8 ? 'max-h-72 overflow-y-auto pr-1' : undefined}>
                    {group.options.map((option) => (
                      <Option key={option.value} name={group.facet} option={option} />
                    ))}
                  </ul>
                ) : (
                  <RangeInputs group={group} />
                )}
              </fieldset>
            </details>
          ))}
          <div className="fixed inset-x-0 bottom-0 flex gap-3 border-t border-slate-200 bg-white p-4 lg:static lg:border-0 lg:px-0">
            {activeCount > 0 ? (
              <a href={clearHref} className={buttonClasses('ghost', 'md', 'underline underline-offset-4')}>
                Clear all
              </a>
            ) : null}
            <button type="submit" className={buttonClasses('primary', 'md', 'flex-1')}>
              <span className="lg:hidden">
                Show {total} {noun}
              </span>
              <span className="hidden lg:inline">Apply filters</span>
            </button>
          </div>
        </StaticMarkup>
      </div>
    </>
  );
}
