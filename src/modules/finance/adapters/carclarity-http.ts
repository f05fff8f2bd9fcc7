import 'server-only';
import { z } from 'zod';
import { postJson } from '@/lib/http-json';
import { localPartner } from './local';
import type { FinancePartner } from './types';

/**
 * CarClarity (CARCLARITY_BASE_URL, CARCLARITY_API_KEY): no quote API, so quotes come from the
 * platform's calculator; the customer and the lead go to POST {base}/customers, which answers where
 * the visitor continues.
 */

export const CARCLARITY_TIMEOUT_MS = 15_000;

const customerAnswer = z.object({ redirectUrl: z.url(), customerId: z.union([z.string(), z.number()]).optional() });

export function carClarityPartner(config: { url: string; key: string }, timeoutMs = CARCLARITY_TIMEOUT_MS): FinancePartner {
  return {
    name: 'carclarity',
    quote: localPartner.quote,
    async createCustomer(application) {
      const body = {
        partnerCode: application.partnerCode,
        externalReference: application.id,
        customer: { firstName: application.firstName, lastName: application.lastName, email: application.email, mobile: application.phone, postcode: application.postcode, marketingConsent: application.subscribe },
        lead: {
          source: application.websiteSlug,
          dealership: application.dealershipSlug,
          amount: application.purchasePrice,
          termYears: application.loanTermYears,
          creditHistory: application.selfAssessedCreditScore,
          vehicle: application.car ? { name: application.car.name, type: application.car.carType, vin: application.vin, year: application.year } : null,
          quote: application.quote,
        },
      };
      const answer = customerAnswer.parse(await postJson(`${config.url}/customers`, config.key, body, timeoutMs));
      return { redirectUrl: answer.redirectUrl, reference: answer.customerId === undefined ? null : String(answer.customerId) };
    },
  };
}
