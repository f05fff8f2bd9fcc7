import { describe, it, expect } from 'vitest';
import { COMPARISON_RATE_WARNING, DEFAULT_FINANCE_SETTINGS, clampLoanTermYears, clampPurchasePrice, comparisonRate, disclaimerText, financeSettings, instantQuote, parseCreditHistory, purchasePriceFloor, repayment, roundCents, monthlyFromWeekly } from './finance.calc';

const loan = { principal: 30_000, annualRatePercent: 10, termMonths: 60 } as const;

describe('repayment', () => {
  it('amortises $30,000 at 10 % over 5 years', () => {
    expect(repayment({ ...loan, frequency: 'monthly' })).toBeCloseTo(637.41, 2);
    expect(repayment({ ...loan, frequency: 'fortnightly' })).toBeCloseTo(293.68, 2); // 130 fortnights
    expect(repayment({ ...loan, frequency: 'weekly' })).toBeCloseTo(146.73, 2); // 260 weeks
  });

  it('takes the present value of a balloon off the principal', () => {
    expect(repayment({ ...loan, frequency: 'monthly', balloon: 9_000 })).toBeCloseTo(521.19, 2);
    expect(repayment({ ...loan, principal: 27_000, frequency: 'weekly', balloon: 9_000 })).toBeCloseTo(105.35, 2);
  });

  it('divides straight through at a zero rate', () => {
    expect(repayment({ ...loan, annualRatePercent: 0, frequency: 'monthly' })).toBe(500);
    expect(repayment({ ...loan, annualRatePercent: 0, frequency: 'weekly' })).toBeCloseTo(115.38, 2);
    expect(repayment({ ...loan, annualRatePercent: 0, frequency: 'monthly', balloon: 6_000 })).toBe(400);
  });
});

describe('comparisonRate', () => {
  it('refuses a fee that takes the whole amount (no rate exists; it used to search forever)', () => {
    expect(() => comparisonRate({ amount: 5_000, annualRatePercent: 8.99, establishmentFee: 5_000, monthlyFee: 10 })).toThrow(RangeError);
    expect(() => comparisonRate({ amount: 4_000, annualRatePercent: 8.99, establishmentFee: 5_000, monthlyFee: 0 })).toThrow(RangeError);
  });
  it('gives about 10.25 % for $30,000 over 5 years at 8.99 % with $400 and $10 monthly fees', () => {
    const rate = comparisonRate({ annualRatePercent: 8.99, establishmentFee: 400, monthlyFee: 10 });
    expect(Math.abs(rate - 10.25)).toBeLessThanOrEqual(0.05);
    expect(rate).toBeCloseTo(10.2531, 3); // 632.61 a month against $30,000 less the $400 fee
  });

  it('equals the advertised rate when there are no fees', () => {
    expect(comparisonRate({ annualRatePercent: 8.99, establishmentFee: 0, monthlyFee: 0 })).toBeCloseTo(8.99, 8);
    expect(comparisonRate({ annualRatePercent: 0, establishmentFee: 0, monthlyFee: 0 })).toBe(0);
  });

  it('rises with fees on a shorter, smaller loan', () => {
    const rate = comparisonRate({ amount: 10_000, termMonths: 12, annualRatePercent: 8.99, establishmentFee: 400, monthlyFee: 10 });
    expect(rate).toBeGreaterThan(17);
  });

  it('finds a rate however high: above the 1,200 % p.a. its search starts under', () => {
    // $632.61 a month against $500 advanced ($30,000 less a $29,500 fee): over 60 months the
    // monthly rate is about 632.61 / 500 = 1.2652 (the payments beyond the first few are worth
    // almost nothing), 1,518 % p.a.
    expect(comparisonRate({ annualRatePercent: 8.99, establishmentFee: 29_500, monthlyFee: 10 })).toBeCloseTo(1518.3, 0);
  });
});

describe('input rules', () => {
  it('clamps the purchase price to 10,000–200,000, digits only, default 30,000', () => {
    expect(clampPurchasePrice(9_999)).toBe(10_000);
    expect(clampPurchasePrice(10_000)).toBe(10_000);
    expect(clampPurchasePrice(200_000)).toBe(200_000);
    expect(clampPurchasePrice(200_001)).toBe(200_000);
    expect(clampPurchasePrice('$35,000')).toBe(35_000);
    expect(clampPurchasePrice('')).toBe(30_000);
    expect(clampPurchasePrice('abc')).toBe(30_000);
    expect(clampPurchasePrice(undefined)).toBe(30_000);
    expect(clampPurchasePrice(Number.NaN)).toBe(30_000);
  });

  it("floors a car's price at 10,000 only when it has a price above zero", () => {
    expect(purchasePriceFloor(8_990)).toBe(8_990);
    expect(purchasePriceFloor(0)).toBe(10_000);
    expect(purchasePriceFloor(-1)).toBe(10_000);
    expect(purchasePriceFloor(undefined)).toBe(10_000);
  });

  it('clamps the loan term to 1–7 years, default 5', () => {
    expect(clampLoanTermYears(0)).toBe(1);
    expect(clampLoanTermYears(1)).toBe(1);
    expect(clampLoanTermYears(7)).toBe(7);
    expect(clampLoanTermYears(8)).toBe(7);
    expect(clampLoanTermYears('3')).toBe(3);
    expect(clampLoanTermYears('')).toBe(5);
    expect(clampLoanTermYears('abc')).toBe(5);
    expect(clampLoanTermYears('   ')).toBe(5);
    expect(clampLoanTermYears(' 3 ')).toBe(3);
  });

  it('reads the credit history, default GREAT', () => {
    expect(parseCreditHistory('POOR')).toBe('POOR');
    expect(parseCreditHistory('decent')).toBe('DECENT');
    expect(parseCreditHistory(' poor ')).toBe('POOR');
    expect(parseCreditHistory('excellent')).toBe('GREAT');
    expect(parseCreditHistory(undefined)).toBe('GREAT');
  });

  it('converts weekly to monthly at 4.33 weeks a month', () => {
    expect(monthlyFromWeekly(100)).toBe(433);
    expect(monthlyFromWeekly(146.73)).toBe(635.34);
  });

  it('rounds to the cent, half a cent up, though 1.005 is stored a little below it', () => {
    expect(roundCents(1.005)).toBe(1.01);
    expect(roundCents(1.004)).toBe(1);
  });
});

describe('financeSettings', () => {
  it('fills in the defaults and merges rates per credit history', () => {
    expect(financeSettings()).toEqual(DEFAULT_FINANCE_SETTINGS);
    const s = financeSettings({ rates: { POOR: 19.5 }, monthlyFee: 0, establishmentFee: undefined });
    expect(s.rates).toEqual({ GREAT: 8.99, DECENT: 12.99, POOR: 19.5 });
    expect(s.monthlyFee).toBe(0);
    expect(s.establishmentFee).toBe(400);
    expect(s.calculatorInterest).toBe(10);
  });
});

describe('instantQuote', () => {
  it('quotes the default loan: $30,000 over 5 years, great credit, fees included', () => {
    // $145.26 a week on $30,400 (fee financed) at 8.99 % over 260 weeks, + $10 × 12 / 52 = $2.31
    expect(instantQuote({ purchasePrice: 30_000, loanTermYears: 5, credit: 'GREAT' })).toEqual({
      weeklyRepaymentAmount: 147.57,
      advertisedRate: 8.99,
      comparisonRate: 10.25,
    });
  });

  it('uses the rate for the credit history and the clamped inputs', () => {
    const q = instantQuote({ purchasePrice: '$50,000', loanTermYears: 3, credit: 'POOR', settings: financeSettings() });
    // The comparison rate is the benchmark loan's ($30,000 over 5 years), not this one's.
    expect(q).toEqual({ weeklyRepaymentAmount: 420.92, advertisedRate: 17.99, comparisonRate: 19.23 });
    // Quoted from $5,000 (decision 052: a car's own price is financed from there).
    expect(instantQuote({ purchasePrice: 500, loanTermYears: 0, credit: 'x' })).toEqual(
      instantQuote({ purchasePrice: 5_000, loanTermYears: 1, credit: 'GREAT' }),
    );
  });

  it('follows the website settings', () => {
    const settings = financeSettings({ rates: { GREAT: 6 }, establishmentFee: 0, monthlyFee: 0 });
    const q = instantQuote({ purchasePrice: 30_000, loanTermYears: 5, credit: 'GREAT', settings });
    expect(q.advertisedRate).toBe(6);
    expect(q.comparisonRate).toBe(6);
  });
});

describe('disclaimerText', () => {
  it('works the example: 5 years, 10 % deposit, 30 % final payment at 10 %, then the warning', () => {
    const text = disclaimerText(financeSettings());
    // $27,400 financed (incl. $400 fee), $9,000 balloon, 260 weeks at 10 %: 107.30 + 2.31
    expect(text).toContain('$30,000 with a 10% deposit ($3,000)');
    expect(text).toContain('30% final payment ($9,000)');
    expect(text).toContain('5 year term');
    expect(text).toContain('at 10.00% p.a. is $109.61 per week ($474.61 per month)');
    expect(text).toContain('Comparison rate 11.26% p.a. based on a secured loan of $30,000 over 5 years.');
    expect(text.endsWith(COMPARISON_RATE_WARNING)).toBe(true);
    expect(text).toContain('($474.61 per month), including a $400 establishment fee and a $10 monthly fee. Comparison rate');
  });

  it('names the fees when there is either one, and none when both are nil', () => {
    // No fees: $27,000 less the $9,000 balloon's present value over 260 weeks at 10 %: $105.35.
    const none = disclaimerText(financeSettings({ establishmentFee: 0, monthlyFee: 0 }));
    expect(none).toContain('is $105.35 per week ($456.17 per month). Comparison rate 10.00% p.a.');
    expect(none).not.toContain('establishment fee');
    expect(disclaimerText(financeSettings({ establishmentFee: 0, monthlyFee: 10 }))).toContain('including a $0 establishment fee and a $10 monthly fee.');
    expect(disclaimerText(financeSettings({ establishmentFee: 400, monthlyFee: 0 }))).toContain('including a $400 establishment fee and a $0 monthly fee.');
  });

  it('writes amounts as money: thousands grouped, no deposit as $0, a minus before the dollar sign', () => {
    expect(disclaimerText(financeSettings({ monthlyFee: 1_250_000 }))).toContain('and a $1,250,000 monthly fee.');
    expect(disclaimerText(financeSettings({ exampleDepositPercent: 0 }))).toContain('with a 0% deposit ($0),');
    // A final payment above the price makes the weekly amount negative: at 0 %, ($27,400 − $45,000)
    // / 260 weeks + $2.31 of monthly fees = −$65.38.
    const negative = disclaimerText(financeSettings({ calculatorInterest: 0, exampleBalloonPercent: 150 }));
    expect(negative).toContain('is -$65.38 per week (-$283.10 per month)');
  });

  it("keeps the example and warning under a website's own text", () => {
    const text = disclaimerText(financeSettings({ disclaimer: 'Finance by Example Credit.', secured: false }));
    expect(text.startsWith('Finance by Example Credit. Example:')).toBe(true);
    expect(text).toContain('unsecured loan');
    expect(text).toContain(COMPARISON_RATE_WARNING);
    expect(disclaimerText(financeSettings({ disclaimer: '  Finance by Example Credit.  ' })).startsWith('Finance by Example Credit. Example:')).toBe(true);
    expect(disclaimerText(financeSettings({ disclaimer: '   ' })).startsWith('Repayment estimates on this website are a guide only')).toBe(true);
  });
});
