import { formatDate } from '@/lib/format';
import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';

/** A publication date in the website's locale and time zone: '3 March 2026' / 'March 3, 2026'. */
export function formatPublishedDate(config: Pick<WebsiteConfig, 'locale' | 'timeZone'>, date: Date): string {
  return formatDate(config, date, 'date');
}
