import Link from 'next/link';
import type { ReactNode } from 'react';
import { clsx as cn } from 'clsx';
import { EXTERNAL_LINK_REL } from '@/modules/tenancy/tenancy.links';
import { EnquiryDialog, RequestPhotosDialog, TestDriveDialog } from '@/modules/leads/components/car-form-dialogs';
import type { LeadCar, LeadSite } from '@/modules/leads';
import { InstantFinanceDialog, type InstantFinanceCar } from '@/modules/finance/components/finance-dialogs';
import type { TriggerLink } from '@/components/ui/deferred-dialog';
import type { CarAction, CarActionKind } from '@/modules/stock/car-page.rules';

/**
 * The car page's actions. Each action has its own small component. Enquire, test drive and request
 * photos open their forms in a dialog (the link still goes to the form's page without JavaScript);
 * reserve links to its checkout page (a page of its own: the payment steps load only there); chat
 * and chatbot open the website's widget where it has one, else link to the contact form; the others
 * link to their SPEC §2 routes until their forms arrive (trade-in).
 */

const base =
  'inline-flex min-h-12 w-full items-center justify-center gap-2 rounded-site px-5 py-2 text-center text-base font-semibold transition-colors';
const primary = `${base} bg-brand text-brand-foreground hover:brightness-110`;
const secondary = `${base} border-2 border-slate-900 text-slate-900 hover:bg-slate-900 hover:text-white`;
const quiet = `${base} border border-slate-300 text-slate-900 hover:border-slate-900`;

export const CAR_ACTION_CLASSES = { primary, secondary, quiet } as const;

/** What the lead forms need to open in place: the website's form settings and the car. */
export type CarForms = { site: LeadSite; car: LeadCar; submitLabel: string; finance?: InstantFinanceCar | null };

type ActionProps = { action: CarAction; className?: string; forms?: CarForms | null };

/** The action's link as data, for a dialog to make and take over (see TriggerLink). */
const dialogLink = ({ action, className }: ActionProps): TriggerLink => ({ href: action.href, label: action.label, className, action: action.kind });

function ActionLink({ action, className, children }: ActionProps & { children?: ReactNode }) {
  const external = /^https?:\/\//.test(action.href);
  // Chat and chatbot: the widget host opens the website's widget from data-widget-open (decision 037).
  const widget = action.kind === 'chat' || action.kind === 'chatbot' ? action.kind : undefined;
  const plain = external || widget != null || action.href.startsWith('#') || action.href.startsWith('tel:') || action.href.startsWith('/media/');
  const label = children ?? action.label;
  if (plain) {
    return (
      <a
        href={action.href}
        className={className}
        data-action={action.kind}
        data-widget-open={widget}
        {...(external ? { target: '_blank', rel: EXTERNAL_LINK_REL } : {})}
      >
        {label}
        {external ? <span className="sr-only"> (opens in a new tab)</span> : null}
      </a>
    );
  }
  return (
    <Link href={action.href} prefetch={false} className={className} data-action={action.kind}>
      {label}
    </Link>
  );
}

export function EnquireAction({ action, className = primary, forms }: ActionProps) {
  if (!forms) return <ActionLink action={action} className={className} />;
  return <EnquiryDialog site={forms.site} car={forms.car} submitLabel={forms.submitLabel} link={dialogLink({ action, className })} />;
}
export function TestDriveAction({ action, className = quiet, forms }: ActionProps) {
  if (!forms) return <ActionLink action={action} className={className} />;
  return <TestDriveDialog site={forms.site} car={forms.car} link={dialogLink({ action, className })} />;
}
export function RequestPhotosAction({ action, className = quiet, forms }: ActionProps) {
  if (!forms) return <ActionLink action={action} className={className} />;
  return <RequestPhotosDialog site={forms.site} car={forms.car} link={dialogLink({ action, className })} />;
}
export function FinanceAction({ action, className = secondary, forms }: ActionProps) {
  if (!forms?.finance) return <ActionLink action={action} className={className} />;
  return <InstantFinanceDialog car={forms.finance} site={forms.site} link={dialogLink({ action, className })} />;
}
export function TradeInAction({ action, className = quiet }: ActionProps) {
  return <ActionLink action={action} className={className} />;
}
export function ReserveAction({ action, className = primary }: ActionProps) {
  return <ActionLink action={action} className={className} />;
}
export function BuyOnlineAction({ action, className = secondary }: ActionProps) {
  return <ActionLink action={action} className={className} />;
}
export function ChatAction({ action, className = quiet }: ActionProps) {
  return <ActionLink action={action} className={className} />;
}
export function WhatsAppAction({ action, className = quiet }: ActionProps) {
  return <ActionLink action={action} className={className} />;
}
export function HistoryReportAction({ action, className = quiet }: ActionProps) {
  return <ActionLink action={action} className={className} />;
}
export function LocationAction({ action, className = quiet }: ActionProps) {
  return <ActionLink action={action} className={className} />;
}
export function CallAction({ action, className = quiet, phone }: ActionProps & { phone: string }) {
  return (
    <ActionLink action={action} className={className}>
      Call {phone}
    </ActionLink>
  );
}

const ACTIONS: Record<Exclude<CarActionKind, 'call'>, (props: ActionProps) => ReactNode> = {
  enquire: EnquireAction,
  testDrive: TestDriveAction,
  requestPhotos: RequestPhotosAction,
  finance: FinanceAction,
  tradeIn: TradeInAction,
  reserve: ReserveAction,
  buyOnline: BuyOnlineAction,
  chat: ChatAction,
  chatbot: ChatAction,
  whatsapp: WhatsAppAction,
  historyReport: HistoryReportAction,
  location: LocationAction,
};

/** The list of actions; `call` is rendered by the caller (plain number or the masked reveal). */
export function CarActionList({
  actions,
  call,
  forms,
  className,
}: {
  actions: CarAction[];
  call: ReactNode;
  /** Null when the car cannot take a lead (e.g. sold): the actions link to the form pages. */
  forms: CarForms | null;
  className?: string;
}) {
  return (
    <ul className={cn('flex flex-col gap-3', className)} aria-label="Actions">
      {actions.map((action) => {
        if (action.kind === 'call') return <li key="call">{call}</li>;
        const Action = ACTIONS[action.kind];
        return (
          <li key={action.kind}>
            <Action action={action} forms={forms} />
          </li>
        );
      })}
    </ul>
  );
}
