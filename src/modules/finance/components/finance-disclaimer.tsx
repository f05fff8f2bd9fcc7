import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { cn } from '@/components/ui/cn';
import { DISCLAIMER_ANCHOR, showsRepayments, financeDisclaimer } from '../finance.display';

/** The disclaimer the repayment estimates' asterisks point to; nothing where no estimate shows. */
export function RepaymentsDisclaimer({ config, className }: { config: WebsiteConfig; className?: string }) {
  if (!showsRepayments(config)) return null;
  return (
    <p id={DISCLAIMER_ANCHOR} className={cn('text-xs leading-relaxed text-slate-600', className)}>
      * {financeDisclaimer(config)}
    </p>
  );
}
