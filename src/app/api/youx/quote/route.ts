import { clientAddress } from '@/lib/client-address';
import { jsonResponse, readJsonBody, visitorRoute } from '@/lib/http';
import { financeQuote } from '@/modules/finance/finance.service';

export const dynamic = 'force-dynamic';

/** POST /api/youx/quote {selfAssessedCreditScore, purchasePrice, loanTerm, year, vin, nvic, whoIsHelping} → {weeklyRepaymentAmount, advertisedRate, comparisonRate}. */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const quote = await financeQuote(tenant, await readJsonBody(request, 4 * 1024), clientAddress(request));
  return jsonResponse(quote, { headers: { 'Cache-Control': 'no-store' } });
});
