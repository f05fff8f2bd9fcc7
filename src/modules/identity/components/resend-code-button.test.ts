import { describe, expect, it } from 'vitest';
import { resendLabel } from './resend-code-button';

// Issue 31 item 4: the sign-in page and the finance popup count down the resend wait alike.
describe('resendLabel', () => {
  it('counts the seconds left, then offers the resend', () => {
    expect(resendLabel(30)).toBe('Resend Code (30 s)');
    expect(resendLabel(29)).toBe('Resend Code (29 s)');
    expect(resendLabel(1)).toBe('Resend Code (1 s)');
    expect(resendLabel(0)).toBe('Resend Code');
  });
});
