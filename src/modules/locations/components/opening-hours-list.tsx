import Link from 'next/link';
import { spell } from '@/lib/format';
import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { HOURS_TEXT, type HoursRow } from '../locations.hours';
import { cn } from '@/components/ui/cn';

type Props = { rows: HoursRow[]; contactPath: string; config: Pick<WebsiteConfig, 'locale'>; caption: string };

/** The week's opening hours: one row per day (Mon-Fri as one when equal), today's row marked. */
export function OpeningHoursList({ rows, contactPath, config, caption }: Props) {
  return (
    <table className="w-full text-left text-[0.95rem]">
      <caption className="sr-only">{caption}</caption>
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.label}
            aria-current={row.today ? 'date' : undefined}
            className={cn('border-b border-gray-100 last:border-0', row.today && 'bg-brand/5 font-semibold')}
          >
            <th scope="row" className="py-1.5 pr-3 pl-2 align-top font-medium text-gray-700">
              <span className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
                <span className="whitespace-nowrap">{row.label}</span>
                {row.today ? (
                  <span className="rounded-full bg-brand px-2 py-0.5 text-xs font-bold text-brand-foreground">{HOURS_TEXT.today}</span>
                ) : null}
              </span>
            </th>
            <td className="py-1.5 pr-2 text-right align-top whitespace-nowrap text-gray-900">
              {row.kind === 'enquire' ? (
                <Link href={contactPath} prefetch={false} className="font-semibold text-brand-text underline underline-offset-2">
                  {spell(config, HOURS_TEXT.enquire)}
                </Link>
              ) : (
                <span className={row.kind === 'open' ? undefined : 'text-gray-600'}>{row.text}</span>
              )}
              {row.holiday ? <span className="block text-xs font-normal text-gray-600">{row.holiday}</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
