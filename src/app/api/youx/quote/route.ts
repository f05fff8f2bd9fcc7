import { clientAddress } from '@/lib/client-address';
import { jsonResponse, readJsonBody } from '@/modules/dashboard/dashboard.http';
import { financeQuote } from '@/modules/finance/finance.service';
import { leadRoute } from '@/modules/leads/leads.http';

export const dynamic = 'force-dynamic';

/** POST /api/youx/quote {selfAssessedCreditScore, purchasePrice, loanTerm, year, vin, nvic, whoIsHelping} → {weeklyRepaymentAmount, advertisedRate, comparisonRate}. */
export const POST = leadRoute(async ({ request, tenant }) => {
  const quote = await financeQuote(tenant, await readJsonBody(request, 4 * 1024), clientAddress(request));
  return jsonResponse(quote, { headers: { 'Cache-Control': 'no-store' } });
});
