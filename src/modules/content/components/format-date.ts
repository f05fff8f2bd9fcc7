import { dateTimeFormat } from '@/lib/intl';
import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';

/** A publication date in the website's locale and time zone: '3 March 2026' / 'March 3, 2026'. */
export function formatPublishedDate(config: Pick<WebsiteConfig, 'locale' | 'timeZone'>, date: Date): string {
  const options: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric' };
  try {
    return dateTimeFormat(config.locale, { ...options, timeZone: config.timeZone }).format(date);
  } catch {
    return dateTimeFormat(config.locale, options).format(date);
  }
}
