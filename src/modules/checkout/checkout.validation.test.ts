import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { cardRequestSchema, cardSchema, luhnValid, startRequestSchema } from './checkout.validation';

/** Stripe's messages for the same cases (the sandbox mirrors them, decision 034). */
const NUMBER = 'Your card number is incorrect.';
const EXPIRY = "Your card's expiration date is invalid.";
const EXPIRED = 'Your card has expired.';
const CVC = "Your card's security code is invalid.";

const now = new Date('2026-11-25T00:00:00Z');
const card = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };
/** The first issue of a refused value: where and what. */
function refusal(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const [issue] = result.error.issues;
  return { path: issue.path.join('.'), message: issue.message };
}

describe('the sandbox card form (issue 36: what the mutation run left unchecked)', () => {
  it('takes 12 to 19 digits that pass the Luhn check, nothing around them', () => {
    expect(luhnValid('424242424242')).toBe(true); // 12 digits
    expect(luhnValid('4242424242424242428')).toBe(true); // 19
    expect(luhnValid('42424242424242424242')).toBe(false); // 20, Luhn-valid
    // A letter before or after the digits is refused as such, whatever its character code adds up to
    // ('X' counts 40 in a sum of digit values: a multiple of 10).
    expect(luhnValid('X4242424242424242')).toBe(false);
    expect(luhnValid('4242424242424240X')).toBe(false);
    expect(luhnValid('79927398713')).toBe(false); // the textbook Luhn example: valid, but 11 digits
    expect(luhnValid('0079927398713')).toBe(true); // the same, zero-padded to 13
    expect(luhnValid('0079927398714')).toBe(false);
  });

  it('names the field and gives Stripe’s message for each wrong part', () => {
    const schema = cardSchema(now);
    expect(schema.safeParse({ ...card, exp_month: '12', exp_year: '2030' }).success).toBe(true);
    expect(schema.safeParse({ ...card, exp_year: '30' }).success).toBe(true);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ number: 4242424242424242 }, 'number', NUMBER],
      [{ number: '4242 4242 4242 4241' }, 'number', NUMBER],
      [{ exp_month: 'a1' }, 'exp_month', EXPIRY],
      [{ exp_month: '1a' }, 'exp_month', EXPIRY],
      [{ exp_month: {} }, 'exp_month', EXPIRY],
      [{ exp_month: 0 }, 'exp_month', EXPIRY],
      [{ exp_year: 'x30' }, 'exp_year', EXPIRY],
      [{ exp_year: '2030x' }, 'exp_year', EXPIRY],
      [{ exp_year: '203' }, 'exp_year', EXPIRY],
      [{ exp_year: {} }, 'exp_year', EXPIRY],
      // Two digits are 20xx; a number of 100 or more is a year as it stands.
      [{ exp_year: 100 }, 'exp_year', EXPIRY],
      [{ exp_year: 2101 }, 'exp_year', EXPIRY],
      [{ cvc: 123 }, 'cvc', CVC],
      [{ cvc: '12345' }, 'cvc', CVC],
      [{ cvc: 'x123' }, 'cvc', CVC],
      [{ cvc: '123x' }, 'cvc', CVC],
      [{ exp_month: 10, exp_year: 2026 }, 'exp_month', EXPIRED],
    ];
    for (const [change, path, message] of cases) expect(refusal(schema, { ...card, ...change }), JSON.stringify(change)).toEqual({ path, message });
    // This month is not expired yet.
    expect(schema.safeParse({ ...card, exp_month: 11, exp_year: 26 }).success).toBe(true);
  });

  it('wraps the card in a request body', () => {
    expect(refusal(cardRequestSchema(now), 'card')).toEqual({ path: '', message: 'must be an object' });
    expect(refusal(cardRequestSchema(now), { card: { ...card, cvc: '1' } })).toEqual({ path: 'card.cvc', message: CVC });
    expect(cardRequestSchema(now).parse({ card: { ...card, number: '4242-4242-4242-4242' } })).toEqual({ card: { ...card, number: '4242424242424242' } });
  });
});

describe('the reservation request', () => {
  const body = { car_id: 12, visitor: { name: 'Jane', last_name: 'Citizen', email: 'jane@example.com', phone: '0412 345 678', postcode: '2000' }, terms_accepted: true };

  it('reserves by default, or buys online; anything else is refused with the choices', () => {
    expect(startRequestSchema().parse(body).kind).toBe('reserve');
    expect(startRequestSchema().parse({ ...body, kind: 'reserve' }).kind).toBe('reserve');
    expect(startRequestSchema().parse({ ...body, kind: 'buy_online' }).kind).toBe('buy_online');
    expect(refusal(startRequestSchema(), { ...body, kind: 'lease' })).toEqual({ path: 'kind', message: 'must be reserve or buy_online' });
  });

  it('needs the terms accepted and an object', () => {
    expect(refusal(startRequestSchema(), { ...body, terms_accepted: false })).toEqual({ path: 'terms_accepted', message: 'Please accept the terms to continue.' });
    expect(refusal(startRequestSchema(), [])).toEqual({ path: '', message: 'must be an object' });
  });
});
