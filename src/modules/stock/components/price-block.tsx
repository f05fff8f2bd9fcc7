import { clsx as cn } from 'clsx';
import { DISCLAIMER_ANCHOR } from '@/modules/finance/finance.display';
import type { PriceView } from './price-view';

type Props = {
  view: PriceView;
  size?: 'card' | 'page';
  className?: string;
};

/**
 * The price by SPEC §5 (see priceView): above 10 with its price type, else the pre-order or
 * no-price text; where the website shows them, the weekly repayment estimate and its comparison
 * rate, equally prominent, marked for the disclaimer (a link on the car page; on cards, which are
 * links themselves, the disclaimer is under the list). Renders on the server and in client cards.
 */
export function PriceBlock({ view, size = 'card', className }: Props) {
  const large = size === 'page';
  return (
    <div className={cn('flex flex-col gap-0.5', className)}>
      {view.price ? (
        <p className="flex flex-wrap items-baseline gap-x-2">
          <span className={cn('font-bold text-slate-900', large ? 'text-3xl' : 'text-xl')}>{view.price}</span>
          {view.priceType ? <span className={cn('text-slate-600', large ? 'text-base' : 'text-sm')}>{view.priceType}</span> : null}
          {view.beforePrice ? (
            <s className={cn('text-slate-500', large ? 'text-base' : 'text-sm')}>
              <span className="sr-only">Was </span>
              {view.beforePrice}
            </s>
          ) : null}
        </p>
      ) : (
        <p className={cn('font-semibold text-slate-900', large ? 'text-xl' : 'text-base')}>{view.text}</p>
      )}
      {view.estimate ? (
        <p className={cn('text-slate-700', large ? 'text-base' : 'text-sm')} data-finance-estimate>
          from <span className="font-semibold">{view.estimate.weekly}/week</span> · comparison rate{' '}
          <span className="font-semibold">{view.estimate.comparisonRate}% p.a.</span>
          {large ? (
            <a href={`#${DISCLAIMER_ANCHOR}`} className="ml-0.5 underline" aria-label="Finance disclaimer">
              *
            </a>
          ) : (
            <span aria-hidden="true">*</span>
          )}
        </p>
      ) : null}
      {view.subscription ? (
        <p className={cn('text-slate-700', large ? 'text-base' : 'text-sm')}>
          or <span className="font-semibold">{view.subscription}</span>
        </p>
      ) : null}
    </div>
  );
}
