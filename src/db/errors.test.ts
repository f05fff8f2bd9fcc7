import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './errors';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN'])('is true for network error %s', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  // Issue 33: 08xxx, 53xxx, 55000, 57P0x, and the statement and idle-in-transaction timeouts (decision 055).
  it.each(['08000', '08001', '08003', '08006', '08P01', '57P01', '57P02', '57P03', '57P04', '57P05', '53000', '53100', '53200', '53300', '53400', '55000', '57014', '25P03'])('is true for SQLSTATE %s', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  it.each([
    ['syntax error', '42601'],
    ['undefined table', '42P01'],
    ['invalid text representation', '22P02'],
    ['numeric out of range', '22003'],
    ['unique violation', '23505'],
    ['lock not available', '55P03'],
    ['object in use', '55006'],
    ['operator intervention lookalike', '57000'],
    ['class 08 lookalike', '0800'],
    ['class 08 with a suffix', '080060'],
  ])('is false for %s (%s)', (_label, code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(false);
  });

  it('reads the cause chain, as drizzle wraps driver errors', () => {
    const wrapped = new Error('Failed query: select 1', { cause: withCode('ECONNREFUSED') });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    const twice = new Error('outer', { cause: new Error('middle', { cause: withCode('08006') }) });
    expect(isDatabaseUnavailable(twice)).toBe(true);
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: withCode('42601') }))).toBe(false);
  });

  it('reads AggregateError.errors, as a pool connecting to several addresses reports', () => {
    const aggregate = new AggregateError([new Error('other'), withCode('ECONNREFUSED')], 'connect failed');
    expect(isDatabaseUnavailable(aggregate)).toBe(true);
    expect(isDatabaseUnavailable(new Error('x', { cause: aggregate }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode('42601'), new Error('y')]))).toBe(false);
    expect(isDatabaseUnavailable(new AggregateError([]))).toBe(false);
  });

  it('recognises connection loss by message', () => {
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect: connection timeout'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated due to connection timeout'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Query read timeout'))).toBe(true);
  });

  it('is false for other errors and non-errors', () => {
    expect(isDatabaseUnavailable(new Error('syntax error at or near "selec"'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is not a function'))).toBe(false);
    for (const value of [undefined, null, 0, '', 'ECONNREFUSED', 42, true, {}, []]) expect(isDatabaseUnavailable(value)).toBe(false);
    expect(isDatabaseUnavailable({ code: 8006 })).toBe(false);
  });

  it('stops on a cyclic or very deep cause chain', () => {
    const cyclic: { message: string; cause?: unknown } = { message: 'loop' };
    cyclic.cause = cyclic;
    expect(isDatabaseUnavailable(cyclic)).toBe(false);
    let deep: unknown = withCode('ECONNREFUSED');
    for (let i = 0; i < 10_000; i++) deep = new Error(`level ${i}`, { cause: deep });
    expect(typeof isDatabaseUnavailable(deep)).toBe('boolean');
  });
});
