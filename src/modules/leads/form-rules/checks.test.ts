import { describe, expect, it } from 'vitest';
import { dateCheck, stateCheck, textCheck, todayIn } from './checks';

/** The checks on their own (issue 36: what the mutation run left unchecked); SPEC §5 messages. */
describe('lead field checks', () => {
  it('asks for a required text and a state before anything else', () => {
    expect(textCheck(10)('')).toBe('*This is a required field.');
    expect(textCheck(10)('Jane')).toBeNull();
    expect(stateCheck('')).toBe('*This is a required field.');
    expect(stateCheck('NSW')).toBeNull();
    expect(stateCheck('Nsw')).toBe('Please choose an Australian state or territory.');
  });

  it('gives today as YYYY-MM-DD in the website time zone', () => {
    // 14:00 UTC on 4 March 2026 is 01:00 on 5 March in Sydney (UTC+11), 06:00 on 4 March in Los Angeles (UTC−8).
    const at = Date.UTC(2026, 2, 4, 14, 0);
    expect(todayIn('Australia/Sydney', at)).toBe('2026-03-05');
    expect(todayIn('America/Los_Angeles', at)).toBe('2026-03-04');
  });

  it('takes only a real YYYY-MM-DD date, nothing around it', () => {
    const check = dateCheck('Australia/Sydney', Date.UTC(2026, 2, 4, 14, 0));
    expect(check('2026-03-05')).toBeNull();
    expect(check('2026-03-04')).toBe('Please choose today or a later date.');
    // Years 0–99 are read by Date.UTC as 1900–1999: the year 0050 is not a date a visitor picks.
    for (const text of ['soon', 'x2026-03-05', '2026-03-05x', '2026-3-5', '2026-13-01', '2026-02-29', '2026-04-31', '2026-03-00', '0050-06-15']) {
      expect(check(text), text).toBe('Please choose a real date.');
    }
    expect(check('2028-02-29')).toBeNull();
  });
});
