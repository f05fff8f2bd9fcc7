import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { spell } from '@/lib/format';
import { clsx as cn } from 'clsx';
import { priceDisplay } from '../stock.rules';
import type { CarSummary } from '../stock.types';
import { formatMoney } from '@/lib/format';
import { DISCLAIMER_ANCHOR, repaymentEstimate } from '@/modules/finance/finance.display';

type Props = {
  car: Pick<CarSummary, 'price' | 'priceType' | 'beforePrice' | 'subscriptionPrice' | 'preorder'>;
  config: WebsiteConfig;
  size?: 'card' | 'page';
  className?: string;
};

/**
 * The price by SPEC §5: above 10 with its price type, else the pre-order or no-price text; where
 * the website shows them, the weekly repayment estimate and its comparison rate, equally prominent,
 * marked for the disclaimer (a link on the car page; on cards, which are links themselves, the
 * disclaimer is under the list).
 */
export function PriceBlock({ car, config, size = 'card', className }: Props) {
  const display = priceDisplay(car, config);
  const large = size === 'page';
  const estimate = display.price && !display.subscription ? repaymentEstimate(config, car.price) : null;
  return (
    <div className={cn('flex flex-col gap-0.5', className)}>
      {display.price ? (
        <p className="flex flex-wrap items-baseline gap-x-2">
          <span className={cn('font-bold text-slate-900', large ? 'text-3xl' : 'text-xl')}>{display.price}</span>
          {display.priceType ? (
            <span className={cn('text-slate-600', large ? 'text-base' : 'text-sm')}>{display.priceType}</span>
          ) : null}
          {display.beforePrice ? (
            <s className={cn('text-slate-500', large ? 'text-base' : 'text-sm')}>
              <span className="sr-only">Was </span>
              {display.beforePrice}
            </s>
          ) : null}
        </p>
      ) : (
        <p className={cn('font-semibold text-slate-900', large ? 'text-xl' : 'text-base')}>
          {spell(config, display.text ?? '')}
        </p>
      )}
      {estimate ? (
        <p className={cn('text-slate-700', large ? 'text-base' : 'text-sm')} data-finance-estimate>
          from <span className="font-semibold">{formatMoney(config, Math.round(estimate.weekly))}/week</span> · comparison rate{' '}
          <span className="font-semibold">{estimate.comparisonRate.toFixed(2)}% p.a.</span>
          {large ? (
            <a href={`#${DISCLAIMER_ANCHOR}`} className="ml-0.5 underline" aria-label="Finance disclaimer">
              *
            </a>
          ) : (
            <span aria-hidden="true">*</span>
          )}
        </p>
      ) : null}
      {display.subscription ? (
        <p className={cn('text-slate-700', large ? 'text-base' : 'text-sm')}>
          or <span className="font-semibold">{display.subscription}</span>
        </p>
      ) : null}
    </div>
  );
}
