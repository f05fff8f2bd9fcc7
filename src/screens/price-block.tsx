import { clsx as cn } from 'clsx';
import { DISCLAIMER_ANCHOR } from '@/modules/finance/finance.display';
import type { PriceView } from '@/screens/price-view';

type Props = {
  view: PriceView;
  size?: 'card' | 'page';
  className?: string;
};

/**
 * The price by SPEC §5 (see priceView): above 10 with its price type, else the pre-order or
 * no-price text; where the website shows them, the weekly repayment estimate and its comparison
 * rate, equally prominent, marked for the disclaimer (a link on the car page; on cards, which are
 * links themselves, the disclaimer is under the list). Renders on the server and in client cards;
 * styled by the price-block classes of globals.css, since a search page repeats it 24 times.
 * Text is joined into one string where React would otherwise mark each part with a comment.
 */
export function PriceBlock({ view, size = 'card', className }: Props) {
  const large = size === 'page';
  return (
    <div className={cn('price-block', large && 'price-block-page', className)}>
      {view.price ? (
        <p className="price-line">
          <span className="price-amount">{view.price}</span>
          {view.priceType ? <span className="text-slate-600">{view.priceType}</span> : null}
          {view.beforePrice ? (
            <s className="text-slate-500">
              <span className="sr-only">Was </span>
              {view.beforePrice}
            </s>
          ) : null}
        </p>
      ) : (
        <p className="price-text">{view.text}</p>
      )}
      {view.estimate ? (
        <p className="text-slate-700" data-finance-estimate>
          from <b>{`${view.estimate.weekly}/week`}</b> at <b>{`${view.estimate.rate}% p.a.`}</b> · comparison rate <b>{`${view.estimate.comparisonRate}% p.a.`}</b>
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
        <p className="text-slate-700">
          or <b>{view.subscription}</b>
        </p>
      ) : null}
    </div>
  );
}
