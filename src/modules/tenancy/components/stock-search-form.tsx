import { buttonClasses } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { SearchIcon } from '@/components/ui/icons';

type Props = {
  action: string;
  labels: { label: string; placeholder: string; submit: string };
  id?: string;
  className?: string;
};

/**
 * The stock search box: a plain GET form to the search page with `q`, so it works without
 * JavaScript and the results page is shareable.
 */
export function StockSearchForm({ action, labels, id = 'stock-search-q', className }: Props) {
  return (
    <form action={action} method="get" role="search" aria-label={labels.label} className={className}>
      <label htmlFor={id} className="mb-2 block text-base font-bold text-gray-900">
        {labels.label}
      </label>
      <div className="flex flex-col gap-2 xs:flex-row">
        <div className="relative min-w-0 flex-1">
          <SearchIcon size={20} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-gray-500" />
          <input
            id={id}
            name="q"
            type="search"
            autoComplete="off"
            enterKeyHint="search"
            placeholder={labels.placeholder}
            className="min-h-12 w-full rounded-site border border-gray-300 bg-white pr-3 pl-10 text-base text-gray-900 placeholder:text-gray-500 focus-visible:border-gray-900"
          />
        </div>
        <button type="submit" className={cn(buttonClasses('accent', 'md'), 'min-h-12')}>
          {labels.submit}
        </button>
      </div>
    </form>
  );
}
