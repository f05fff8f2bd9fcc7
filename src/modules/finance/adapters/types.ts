import type { FinanceSettings, InstantQuote } from '../finance.calc';
import type { QuoteRequest } from '../finance.validation';

/** One finance partner (issue 15): a quote, and the applicant handed over. */
export type FinanceApplication = {
  id: string;
  websiteSlug: string;
  dealershipSlug: string | null;
  /** The dealer's code at the partner (website configuration finance.partners). */
  partnerCode: string | null;
  phone: string;
  firstName: string;
  lastName: string | null;
  email: string;
  postcode: string | null;
  subscribe: boolean;
  purchasePrice: number;
  loanTermYears: number;
  selfAssessedCreditScore: string;
  vin: string | null;
  nvic: string | null;
  year: number | null;
  car: { id: number; name: string; carType: string } | null;
  quote: InstantQuote;
};

export type HandOver = { redirectUrl: string; reference: string | null };

export interface FinancePartner {
  readonly name: 'local' | 'youx' | 'carclarity';
  quote(request: QuoteRequest, settings: FinanceSettings): Promise<InstantQuote>;
  createCustomer(application: FinanceApplication): Promise<HandOver>;
}
