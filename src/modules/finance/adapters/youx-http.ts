import 'server-only';
import { z } from 'zod';
import { postJson } from '@/lib/http-json';
import { localPartner } from './local';
import type { FinancePartner } from './types';

/**
 * YouX (YOUX_BASE_URL, YOUX_API_KEY): POST {base}/quote and POST {base}/customers with the key as
 * a bearer token. A dealership may instead send visitors to YouX's hosted application page
 * (finance.partners[slug].hostedApplication with its partnerCode), which needs no API call; without
 * API keys such a dealership's quotes come from the calculator.
 */

export const YOUX_TIMEOUT_MS = 15_000;
export const YOUX_HOSTED_APPLICATION = 'https://apply.youxpowered.com.au';

const quoteAnswer = z.object({ weeklyRepaymentAmount: z.number().finite(), advertisedRate: z.number().finite(), comparisonRate: z.number().finite() });
const customerAnswer = z.object({ redirectUrl: z.url(), id: z.union([z.string(), z.number()]).optional() });

export function hostedApplicationUrl(partnerCode: string, amount: number): string {
  return `${YOUX_HOSTED_APPLICATION}/${encodeURIComponent(partnerCode)}?amount=${Math.round(amount)}`;
}

export function youxPartner(
  config: { url: string; key: string } | null,
  options: { hostedApplication: boolean; timeoutMs?: number } = { hostedApplication: false },
): FinancePartner {
  const timeout = options.timeoutMs ?? YOUX_TIMEOUT_MS;
  return {
    name: 'youx',
    async quote(request, settings) {
      if (!config) return localPartner.quote(request, settings);
      const body = {
        selfAssessedCreditScore: request.selfAssessedCreditScore,
        purchasePrice: request.purchasePrice,
        loanTerm: request.loanTerm,
        year: request.year ?? null,
        vin: request.vin,
        nvic: request.nvic,
        whoIsHelping: request.whoIsHelping,
      };
      return quoteAnswer.parse(await postJson(`${config.url}/quote`, config.key, body, timeout));
    },
    async createCustomer(application) {
      if (options.hostedApplication && application.partnerCode) {
        return { redirectUrl: hostedApplicationUrl(application.partnerCode, application.purchasePrice), reference: null };
      }
      if (!config) throw new Error('YouX is not configured (YOUX_BASE_URL, YOUX_API_KEY)');
      const body = {
        dealerCode: application.partnerCode,
        reference: application.id,
        customer: { firstName: application.firstName, lastName: application.lastName, email: application.email, phoneNumber: application.phone, postCode: application.postcode, subscribe: application.subscribe },
        loan: { purchasePrice: application.purchasePrice, loanTerm: application.loanTermYears, selfAssessedCreditScore: application.selfAssessedCreditScore },
        vehicle: { vin: application.vin, nvic: application.nvic, year: application.year },
      };
      const answer = customerAnswer.parse(await postJson(`${config.url}/customers`, config.key, body, timeout));
      return { redirectUrl: answer.redirectUrl, reference: answer.id === undefined ? null : String(answer.id) };
    },
  };
}
