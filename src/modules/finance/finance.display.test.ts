import { describe, expect, it } from 'vitest';
import { parseWebsiteConfig, offersInstantFinance } from '@/modules/tenancy/tenancy.config';
import { financeDisclaimer, formatRepayment, repaymentEstimate, showsRepayments } from './finance.display';
import { financeEnquiryFromForm, refusedFinanceForm as refusedForm, refusedFormPath } from './finance.enquiry';
import { parseRefusedForm, refusedFormCookieValue } from '@/modules/leads/leads.refused-form';
import { clampPurchasePrice, instantQuote, purchasePriceFloor } from './finance.calc';

describe('repayment estimates beside prices', () => {
  const au = parseWebsiteConfig({});
  // Issue 31 item 7: the $12,990 Corolla's card said $50/week at an unnamed 10 % (11.26 %), its popup $66.29.
  it('shows AU websites the car’s instant quote (the popup’s starting inputs), its rate beside its comparison rate', () => {
    expect(repaymentEstimate(au, 12_990)).toEqual({ weeklyRepaymentAmount: 66.29, advertisedRate: 8.99, comparisonRate: 10.25 });
    expect(repaymentEstimate(au, 12_990)).toEqual(instantQuote({ purchasePrice: 12_990, loanTermYears: 5, credit: 'GREAT' }));
    expect(repaymentEstimate(au, 30_000)).toEqual({ weeklyRepaymentAmount: 147.57, advertisedRate: 8.99, comparisonRate: 10.25 });
    // The disclaimer's worked example keeps SPEC §9's terms, its 10 % beside its own comparison rate.
    expect(financeDisclaimer(au)).toContain('at 10.00% p.a. is $109.61 per week');
    expect(financeDisclaimer(au)).toContain('Comparison rate 11.26% p.a.');
    expect(formatRepayment(66.29)).toBe('$66.29');
    expect(formatRepayment(1234.5)).toBe('$1,234.50');
    expect(formatRepayment(1_234_567.8)).toBe('$1,234,567.80');
  });
  it('quotes a car under $10,000 on its own price, not on a $10,000 loan', () => {
    // The $8,990 Tiguan: $9,390 with the fee at 8.99 % over 260 weeks, + $2.31 of monthly fees.
    expect(repaymentEstimate(au, 8_990)!.weeklyRepaymentAmount).toBe(47.18);
    expect(clampPurchasePrice(8_990, purchasePriceFloor(8_990))).toBe(8_990);
    expect(clampPurchasePrice(7_000, purchasePriceFloor(8_990))).toBe(8_990);
    expect(clampPurchasePrice(7_000)).toBe(10_000);
    expect(purchasePriceFloor(null)).toBe(10_000);
    expect(purchasePriceFloor(25_000)).toBe(10_000);
  });
  it('hides it below $5,000, without a price, where the website turns it off, and on NZ and US websites', () => {
    expect(repaymentEstimate(au, 4_999)).toBeNull();
    // Decision 052: from $5,000 itself. $5,400 with the fee at 8.99 % over 260 weeks is $25.80, + $2.31.
    expect(repaymentEstimate(au, 5_000)?.weeklyRepaymentAmount).toBe(28.11);
    expect(repaymentEstimate(au, 0)).toBeNull();
    expect(repaymentEstimate(parseWebsiteConfig({ finance: { showRepayments: false } }), 30_000)).toBeNull();
    for (const currency of ['NZD', 'USD']) {
      const config = parseWebsiteConfig({ currency });
      expect(showsRepayments(config)).toBe(false);
      expect(repaymentEstimate(config, 30_000)).toBeNull();
    }
  });
  it('offers the instant quote and hand-over on Australian websites that keep it on (the partners lend in Australia, decision 030)', () => {
    expect(offersInstantFinance(au)).toBe(true);
    expect(offersInstantFinance(parseWebsiteConfig({ finance: { instantQuote: false } }))).toBe(false);
    for (const currency of ['NZD', 'USD']) expect(offersInstantFinance(parseWebsiteConfig({ currency }))).toBe(false);
  });
  it('follows the website’s rates', () => {
    const dearer = repaymentEstimate(parseWebsiteConfig({ finance: { rates: { GREAT: 14 } } }), 30_000)!;
    expect(dearer.advertisedRate).toBe(14);
    expect(dearer.weeklyRepaymentAmount).toBeGreaterThan(147.57);
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

// Issue 31 item 2: a refused plain post comes back with what was typed and each message.
describe('the refused finance enquiry', () => {
  const form = { name: 'Fin9', last_name: 'Lee', email: 'fin@example.com', phone: '12345', postcode: '2000', amount: '25000', term: '3', selfAssessedCreditScore: 'POOR', whoIsHelping: 'Sam', dealership_slug: 'harbour-city-mazda', message: 'Hi', opt_in: 'on', favourite_color: '' };
  const fieldErrors = { 'lead.name': 'Please use alphabetical characters only.', 'lead.first_name': 'Please use alphabetical characters only.', 'lead.phone': 'Invalid phone number. Must be an Australian number.' };

  it('keeps every value the visitor typed and each field’s message under the form’s names', () => {
    const refused = refusedForm(form, fieldErrors);
    expect(refused.errors).toEqual({ name: 'Please use alphabetical characters only.', phone: 'Invalid phone number. Must be an Australian number.' });
    expect(refused.values).toEqual({ name: 'Fin9', last_name: 'Lee', email: 'fin@example.com', phone: '12345', postcode: '2000', amount: '25000', term: '3', selfAssessedCreditScore: 'POOR', message: 'Hi', opt_in: 'on' });
    expect(parseRefusedForm(refusedFormCookieValue(refused))).toEqual(refused);
  });

  it('goes back to /finance with the form’s query parameters, never the visitor’s details', () => {
    const path = refusedFormPath(form, { car_id: 42 }, refusedForm(form, fieldErrors));
    const url = new URL(path, 'https://x.test');
    expect(url.pathname).toBe('/finance');
    expect(url.hash).toBe('#finance-form');
    expect(Object.fromEntries(url.searchParams)).toEqual({ invalid: 'name,phone', car_id: '42', vehiclePriceBudget: '25000', loanTerm: '3', selfAssessedCreditScore: 'POOR', whoIsHelping: 'Sam', preferredDealership: 'harbour-city-mazda' });
    expect(path).not.toContain('fin%40example.com');
    expect(path).not.toContain('Fin9');
  });

  it('fits a cookie however long the message, and reads nothing from a broken one', () => {
    const long = refusedForm({ ...form, message: 'é'.repeat(2_000) }, fieldErrors);
    const value = refusedFormCookieValue(long);
    expect(value.length).toBeLessThanOrEqual(3_800);
    expect(parseRefusedForm(value)!.values.name).toBe('Fin9');
    expect(parseRefusedForm('%E0%A4%A')).toBeNull();
    expect(parseRefusedForm('{"values":{"name":1},"errors":[]}')).toEqual({ form: '', values: {}, errors: {} });
  });
});
