/**
 * Finance arithmetic: repayments, the comparison rate, the finance form's input rules (SPEC §5,
 * §9), the local instant quote and the disclaimer's worked example. Pure functions, no I/O: safe on
 * the client and the server.
 */

export type RepaymentFrequency = 'weekly' | 'fortnightly' | 'monthly';

export const PERIODS_PER_YEAR: Record<RepaymentFrequency, number> = { weekly: 52, fortnightly: 26, monthly: 12 };

export const PURCHASE_PRICE_MIN = 10_000;
/**
 * The smallest amount quoted (decision 052): a car's own price is financed down to this, so a
 * $8,990 car is quoted on $8,990 (a typed budget still starts at PURCHASE_PRICE_MIN). Below it no
 * estimate is shown.
 */
export const FINANCE_MIN_AMOUNT = 5_000;
export const PURCHASE_PRICE_MAX = 200_000;
export const PURCHASE_PRICE_DEFAULT = 30_000;
export const LOAN_TERM_MIN_YEARS = 1;
export const LOAN_TERM_MAX_YEARS = 7;
export const LOAN_TERM_DEFAULT_YEARS = 5;
/** SPEC §9: monthly = 4.33 × weekly. */
export const WEEKS_PER_MONTH = 4.33;

export const CREDIT_HISTORIES = ['GREAT', 'DECENT', 'POOR'] as const;
export type CreditHistory = (typeof CREDIT_HISTORIES)[number];
export const DEFAULT_CREDIT_HISTORY: CreditHistory = 'GREAT';

export const COMPARISON_RATE_WARNING =
  'WARNING: This comparison rate is true only for the examples given and may not include all fees and charges. Different terms, fees or other loan amounts might result in a different comparison rate.';

export function roundCents(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/**
 * The payment per period of a loan paid in arrears. A balloon is a lump sum due with the last
 * payment; its present value is taken off the principal before amortising. Unrounded.
 */
export function repayment({
  principal,
  annualRatePercent,
  termMonths,
  frequency,
  balloon = 0,
}: {
  principal: number;
  annualRatePercent: number;
  termMonths: number;
  frequency: RepaymentFrequency;
  balloon?: number;
}): number {
  const perYear = PERIODS_PER_YEAR[frequency];
  // 60 months is exactly 260 weeks / 130 fortnights; odd month counts round to whole periods.
  const n = Math.max(1, Math.round((termMonths * perYear) / 12));
  const r = annualRatePercent / 100 / perYear;
  if (r === 0) return (principal - balloon) / n;
  const discount = Math.pow(1 + r, -n);
  return ((principal - balloon * discount) * r) / (1 - discount);
}

/**
 * The comparison rate (National Credit Code Part 10, NCCP Regulations reg 100), in % p.a.,
 * unrounded: 12 × the monthly rate that makes the amount advanced equal to the present value of
 * everything the borrower pays each month.
 *
 * The establishment fee counts as paid when the loan starts (reg 100's fees payable at
 * settlement): the rate equates the amount advanced less that fee with the repayments on the
 * amount at the advertised rate plus the monthly fee. For $30,000 over 60 months at 8.99 % with a
 * $400 establishment fee and a $10 monthly fee this gives 10.25 %.
 */
export function comparisonRate({
  amount = PURCHASE_PRICE_DEFAULT,
  termMonths = 60,
  annualRatePercent,
  establishmentFee,
  monthlyFee,
}: {
  amount?: number;
  termMonths?: number;
  annualRatePercent: number;
  establishmentFee: number;
  monthlyFee: number;
}): number {
  const n = Math.max(1, Math.round(termMonths));
  const payment =
    repayment({ principal: amount, annualRatePercent, termMonths: n, frequency: 'monthly' }) + monthlyFee;
  const netAdvanced = amount - establishmentFee;
  // Nothing advanced: no rate makes the payments worth it (and the search below would never end).
  if (!(netAdvanced > 0)) throw new RangeError(`comparisonRate: the establishment fee (${establishmentFee}) must be less than the amount (${amount})`);
  // Present value of the payments at monthly rate r, minus the amount advanced: falls as r rises.
  const excess = (r: number) => (r === 0 ? payment * n : (payment * (1 - Math.pow(1 + r, -n))) / r) - netAdvanced;
  // Costs of credit are never negative here, so the rate is never below zero.
  if (excess(0) <= 0) return 0;
  let lo = 0;
  let hi = 1; // 1,200 % p.a.: far above any real loan
  while (excess(hi) > 0) hi *= 2;
  while (hi - lo > 1e-12) {
    const mid = (lo + hi) / 2;
    if (excess(mid) > 0) lo = mid;
    else hi = mid;
  }
  return ((lo + hi) / 2) * 12 * 100;
}

function digitsOnly(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : null;
  if (typeof value !== 'string') return null;
  const digits = value.replace(/\D/g, '');
  return digits === '' ? null : Number(digits);
}

/**
 * SPEC §5: the purchase price keeps digits only, clamped to 10,000–200,000, default 30,000. `floor`
 * lowers the minimum (never below FINANCE_MIN_AMOUNT): a car's price (purchasePriceFloor) or, on
 * the server, which cannot tell a car's price from a typed one, FINANCE_MIN_AMOUNT.
 */
export function clampPurchasePrice(value: unknown, floor: number = PURCHASE_PRICE_MIN): number {
  const n = digitsOnly(value);
  if (n === null) return PURCHASE_PRICE_DEFAULT;
  const min = Math.min(PURCHASE_PRICE_MIN, Math.max(FINANCE_MIN_AMOUNT, floor));
  return Math.min(PURCHASE_PRICE_MAX, Math.max(min, n));
}

/** The purchase price's minimum with this car chosen: its own price where that is below PURCHASE_PRICE_MIN. */
export function purchasePriceFloor(carPrice: number | null | undefined): number {
  return carPrice && carPrice > 0 ? Math.min(PURCHASE_PRICE_MIN, carPrice) : PURCHASE_PRICE_MIN;
}

/** SPEC §5: loan term 1 to 7 whole years, default 5. */
export function clampLoanTermYears(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return LOAN_TERM_DEFAULT_YEARS;
  return Math.min(LOAN_TERM_MAX_YEARS, Math.max(LOAN_TERM_MIN_YEARS, Math.round(n)));
}

export function parseCreditHistory(value: unknown): CreditHistory {
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return (CREDIT_HISTORIES as readonly string[]).includes(upper) ? (upper as CreditHistory) : DEFAULT_CREDIT_HISTORY;
}

/** SPEC §9: monthly = 4.33 × weekly, to the cent. */
export function monthlyFromWeekly(weekly: number): number {
  return roundCents(WEEKS_PER_MONTH * weekly);
}

export type FinanceSettings = {
  /** Advertised annual rate (%) per self-assessed credit history. */
  rates: Record<CreditHistory, number>;
  establishmentFee: number;
  monthlyFee: number;
  /** The rate (%) of the repayment estimates and of the disclaimer's example. */
  calculatorInterest: number;
  secured: boolean;
  /** Replaces the disclaimer's opening text; the worked example and the warning always follow. */
  disclaimer: string | null;
  examplePurchasePrice: number;
  exampleTermYears: number;
  exampleDepositPercent: number;
  /** Final (balloon) payment as a percentage of the purchase price. */
  exampleBalloonPercent: number;
};

export const DEFAULT_FINANCE_SETTINGS: FinanceSettings = {
  rates: { GREAT: 8.99, DECENT: 12.99, POOR: 17.99 },
  establishmentFee: 400,
  monthlyFee: 10,
  calculatorInterest: 10,
  secured: true,
  disclaimer: null,
  examplePurchasePrice: 30_000,
  exampleTermYears: 5,
  exampleDepositPercent: 10,
  exampleBalloonPercent: 30,
};

export type FinanceSettingsInput = Partial<Omit<FinanceSettings, 'rates'>> & {
  rates?: Partial<Record<CreditHistory, number>>;
};

/** Defaults overlaid with the given settings (undefined values keep the default). */
export function financeSettings(partial: FinanceSettingsInput = {}): FinanceSettings {
  const defined = <T extends object>(o: T) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  const { rates, ...rest } = partial;
  return {
    ...DEFAULT_FINANCE_SETTINGS,
    ...defined(rest),
    rates: { ...DEFAULT_FINANCE_SETTINGS.rates, ...defined(rates ?? {}) },
  };
}

export type InstantQuote = { weeklyRepaymentAmount: number; advertisedRate: number; comparisonRate: number };

/**
 * The one quote (decision 052): the local instant quote (SPEC §3 quote response), the 'from
 * $X/week' beside a car's price, and the disclaimer's worked example all come from here, so one
 * car with the same inputs shows one figure everywhere.
 *
 * By default the whole purchase price is borrowed and fully repaid over the term at the rate for
 * the credit history (the quote request has no deposit or final payment). The weekly amount is
 * what the borrower pays: the establishment fee is financed (as in `comparisonRate`) and the
 * monthly fee spread over the weeks. The comparison rate belongs to the advertised rate and is
 * always given with it, on the benchmark loan the law names for car loans ($30,000 over 5 years).
 * Any amount from FINANCE_MIN_AMOUNT is quoted: the price field's own minimum (PURCHASE_PRICE_MIN
 * without a car) is the form's to apply. The worked example passes its own rate, deposit and final
 * payment.
 */
export function instantQuote({
  purchasePrice,
  loanTermYears,
  credit,
  settings = DEFAULT_FINANCE_SETTINGS,
  annualRatePercent,
  depositPercent = 0,
  balloonPercent = 0,
}: {
  purchasePrice: unknown;
  loanTermYears: unknown;
  credit: unknown;
  settings?: FinanceSettings;
  annualRatePercent?: number;
  depositPercent?: number;
  balloonPercent?: number;
}): InstantQuote {
  const amount = clampPurchasePrice(purchasePrice, FINANCE_MIN_AMOUNT);
  const termMonths = clampLoanTermYears(loanTermYears) * 12;
  const rate = annualRatePercent ?? settings.rates[parseCreditHistory(credit)];
  const deposit = roundCents((amount * depositPercent) / 100);
  const balloon = roundCents((amount * balloonPercent) / 100);
  const weekly =
    repayment({ principal: amount - deposit + settings.establishmentFee, annualRatePercent: rate, termMonths, frequency: 'weekly', balloon }) +
    (settings.monthlyFee * 12) / 52;
  return {
    weeklyRepaymentAmount: roundCents(weekly),
    advertisedRate: roundCents(rate),
    comparisonRate: roundCents(comparisonRate({ annualRatePercent: rate, establishmentFee: settings.establishmentFee, monthlyFee: settings.monthlyFee })),
  };
}

/** The quote for a car's price with the popup's starting inputs (5 years, the default credit history). */
export function carQuote(price: number, settings: FinanceSettings = DEFAULT_FINANCE_SETTINGS): InstantQuote {
  return instantQuote({ purchasePrice: price, loanTermYears: LOAN_TERM_DEFAULT_YEARS, credit: DEFAULT_CREDIT_HISTORY, settings });
}

function formatMoney(value: number, cents: boolean): string {
  const [whole, fraction] = Math.abs(value).toFixed(cents ? 2 : 0).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 ? '-' : ''}$${grouped}${fraction ? `.${fraction}` : ''}`;
}

const DEFAULT_DISCLAIMER_INTRO =
  'Repayment estimates on this website are a guide only and are not a quote or an offer of finance. The rate, fees and repayments you are offered depend on your circumstances and the lender’s credit assessment. Terms, conditions, fees, charges and lending criteria apply.';

/** The disclaimer's worked example (SPEC §9): its price, deposit, term and final payment at the calculator rate. */
export function exampleQuote(settings: FinanceSettings = DEFAULT_FINANCE_SETTINGS): InstantQuote {
  return instantQuote({
    purchasePrice: settings.examplePurchasePrice,
    loanTermYears: settings.exampleTermYears,
    credit: DEFAULT_CREDIT_HISTORY,
    settings,
    annualRatePercent: settings.calculatorInterest,
    depositPercent: settings.exampleDepositPercent,
    balloonPercent: settings.exampleBalloonPercent,
  });
}

/**
 * The finance disclaimer: the website's text (or the standard one), a worked example (SPEC §9:
 * 5 year term, 10 % deposit, 30 % final payment at the default calculator interest), the
 * comparison rate for the standard $30,000 over 5 years, and the statutory warning.
 */
export function disclaimerText(settings: FinanceSettings = DEFAULT_FINANCE_SETTINGS): string {
  const price = clampPurchasePrice(settings.examplePurchasePrice);
  const deposit = roundCents((price * settings.exampleDepositPercent) / 100);
  const balloon = roundCents((price * settings.exampleBalloonPercent) / 100);
  const example = exampleQuote(settings);
  const rate = example.advertisedRate;
  const fees = settings.establishmentFee > 0 || settings.monthlyFee > 0;
  const weekly = example.weeklyRepaymentAmount;
  const security = settings.secured ? 'secured' : 'unsecured';

  const sentence =
    `Example: a vehicle purchase price of ${formatMoney(price, false)} with a ${settings.exampleDepositPercent}% deposit (${formatMoney(deposit, false)}), ` +
    `a ${settings.exampleTermYears} year term and a ${settings.exampleBalloonPercent}% final payment (${formatMoney(balloon, false)}) ` +
    `at ${rate.toFixed(2)}% p.a. is ${formatMoney(weekly, true)} per week (${formatMoney(monthlyFromWeekly(weekly), true)} per month)` +
    (fees
      ? `, including a ${formatMoney(settings.establishmentFee, false)} establishment fee and a ${formatMoney(settings.monthlyFee, false)} monthly fee.`
      : '.');
  const comparisonSentence = `Comparison rate ${example.comparisonRate.toFixed(2)}% p.a. based on a ${security} loan of $30,000 over 5 years.`;
  return [settings.disclaimer?.trim() || DEFAULT_DISCLAIMER_INTRO, sentence, comparisonSentence, COMPARISON_RATE_WARNING].join(' ');
}
