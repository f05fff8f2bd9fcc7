import { instantQuote } from '../finance.calc';
import { successPath } from '@/modules/leads/server';
import type { FinancePartner } from './types';

/**
 * The platform's own partner, the default: quotes from the calculator with the website's rates, and
 * hands over by keeping the stored application for the dealer (it arrives with the lead) and
 * sending the visitor to the dealer's own confirmation page.
 */
export const localPartner: FinancePartner = {
  name: 'local',
  async quote(request, settings) {
    return instantQuote({ purchasePrice: request.purchasePrice, loanTermYears: request.loanTerm, credit: request.selfAssessedCreditScore, settings });
  },
  async createCustomer(application) {
    return { redirectUrl: successPath('finance-enquiry', { application: application.id }), reference: application.id };
  },
};
