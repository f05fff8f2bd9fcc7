import { FinancePage } from '@/screens/finance-page';
import { FINANCE_METADATA, type FinanceQuery } from '@/modules/finance/finance.route';
import { requireTenant } from '@/modules/tenancy/tenancy.request';

/** /finance-enquiry: the finance page (SPEC §2). */
export const metadata = { ...FINANCE_METADATA, alternates: { canonical: '/finance-enquiry' } };

export default async function Page({ searchParams }: { searchParams: Promise<FinanceQuery> }) {
  return <FinancePage tenant={await requireTenant()} query={await searchParams} />;
}
