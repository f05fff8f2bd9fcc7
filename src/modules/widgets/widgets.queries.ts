import 'server-only';
import { cache } from 'react';
import { eq } from 'drizzle-orm';
import { getDb } from '@/db';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { websiteSecretsSchema } from '@/modules/tenancy/tenancy.config';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { allowCspSources } from '@/lib/request-context';
import { serviceBookingUrl, widgetCspSources, widgetPlan, type WidgetPlan } from './widgets.plan';

/**
 * The website's widget plan for the page being rendered (decision 037), and its widgets' origins
 * added to this response's Content-Security-Policy. One query for the secrets, only when the
 * configuration names a widget that needs one; once per request (the layout and the car page ask).
 */
export const getWidgetPlan = cache(async function getWidgetPlan(tenant: Tenant): Promise<WidgetPlan> {
  const w = tenant.config.widgets;
  const needsSecrets = w.chat.provider != null || w.chatbot.enabled;
  let secrets = {};
  if (needsSecrets) {
    const db = await getDb();
    const [row] = await db.select({ secrets: websites.secrets }).from(websites).where(eq(websites.id, tenant.id)).limit(1);
    const parsed = websiteSecretsSchema.safeParse(row?.secrets ?? {});
    if (parsed.success) secrets = parsed.data;
  }
  const plan = widgetPlan(tenant.config, secrets, { production: process.env.NODE_ENV === 'production' });
  if (plan.widgets.length) allowCspSources(widgetCspSources(plan));
  return plan;
});

/**
 * The dealer's online service booking (xtime) address from its secrets, or null: an https address
 * only. A plain link, so it needs no script and no CSP origin.
 */
export async function getServiceBookingUrl(tenant: Tenant): Promise<string | null> {
  const db = await getDb();
  const [row] = await db.select({ secrets: websites.secrets }).from(websites).where(eq(websites.id, tenant.id)).limit(1);
  const parsed = websiteSecretsSchema.safeParse(row?.secrets ?? {});
  return serviceBookingUrl(parsed.success ? parsed.data.xtimeUrl : undefined);
}
