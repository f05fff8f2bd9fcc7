import { permanentRedirect } from 'next/navigation';
import { FinancePage } from '@/screens/finance-page';
import { FINANCE_METADATA, type FinanceQuery } from '@/modules/finance/finance.route';
import { requireTenant } from '@/modules/tenancy/tenancy.request';

/** /finance-pre-approval: the finance page, or where the website's template sends pre-approval (SPEC §2: /finance on some). */
export const metadata = { ...FINANCE_METADATA, alternates: { canonical: '/finance-pre-approval' } };

export default async function Page({ searchParams }: { searchParams: Promise<FinanceQuery> }) {
  const tenant = await requireTenant();
  const query = await searchParams;
  const target = tenant.config.finance.preApprovalPath;
  if (target !== '/finance-pre-approval') {
    const search = new URLSearchParams(Object.entries(query).flatMap(([key, value]) => (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v) => [key, v])));
    permanentRedirect(`${target}${search.size ? `?${search.toString()}` : ''}`);
  }
  return <FinancePage tenant={tenant} query={query} />;
}
