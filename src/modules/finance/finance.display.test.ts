import { describe, expect, it } from 'vitest';
import { parseWebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { financeDisclaimer, repaymentEstimate, showsRepayments } from './finance.display';
import { financeEnquiryFromForm } from './finance.enquiry';
import { weeklyEstimate, financeSettings } from './finance.calc';

describe('repayment estimates beside prices', () => {
  const au = parseWebsiteConfig({});
  it('shows AU websites a weekly estimate on the disclaimer’s terms, with the comparison rate', () => {
    const estimate = repaymentEstimate(au, 30_000)!;
    expect(estimate.weekly).toBe(weeklyEstimate(30_000, financeSettings()));
    expect(estimate.comparisonRate).toBe(11.26);
    expect(financeDisclaimer(au)).toContain('Comparison rate 11.26% p.a.');
  });
  it('hides it below $5,000, without a price, where the website turns it off, and on NZ and US websites', () => {
    expect(repaymentEstimate(au, 4_999)).toBeNull();
    expect(repaymentEstimate(au, 0)).toBeNull();
    expect(repaymentEstimate(parseWebsiteConfig({ finance: { showRepayments: false } }), 30_000)).toBeNull();
    for (const currency of ['NZD', 'USD']) {
      const config = parseWebsiteConfig({ currency });
      expect(showsRepayments(config)).toBe(false);
      expect(repaymentEstimate(config, 30_000)).toBeNull();
    }
  });
  it('follows the website’s calculator rate', () => {
    const dearer = repaymentEstimate(parseWebsiteConfig({ finance: { calculatorInterest: 14 } }), 30_000)!;
    expect(dearer.weekly).toBeGreaterThan(repaymentEstimate(au, 30_000)!.weekly);
  });
});

describe('the finance enquiry form post as a lead', () => {
  it('takes the fields, clamps the figures and fixes the category', () => {
    const lead = financeEnquiryFromForm(
      { name: ' Mia ', last_name: 'Chen', email: 'mia@example.com', phone: '0412 345 678', postcode: '2000', amount: '250000', term: '9', selfAssessedCreditScore: 'poor', opt_in: 'on', car_id: '42', category: 'General Enquiry', message: '' },
      'harbour-city-motors',
    );
    expect(lead).toMatchObject({ name: 'Mia Chen', first_name: 'Mia', category: 'Finance Enquiry', amount: 200_000, term: 7, selfAssessedCreditScore: 'POOR', opt_in: true, car_id: 42, postcode: '2000' });
    expect(lead).not.toHaveProperty('message');
  });
  it('drops ids that are not numbers and defaults what is missing', () => {
    const lead = financeEnquiryFromForm({ car_id: '1 or 1=1', location_id: '-3' }, 'x');
    expect(lead).not.toHaveProperty('car_id');
    expect(lead).not.toHaveProperty('location_id');
    expect(lead).toMatchObject({ amount: 30_000, term: 5, selfAssessedCreditScore: 'GREAT', opt_in: false });
  });
});
