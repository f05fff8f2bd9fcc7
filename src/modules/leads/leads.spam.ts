/**
 * Spam scoring of a lead (pure; the repeated-message count comes from the database). A honeypot
 * value alone marks spam; otherwise two signals are needed, so one odd trait (a link, a fast
 * autofilled form) never hides a genuine enquiry from the dealer.
 */

export type SpamSignals = {
  honeypot: string | undefined;
  /** Milliseconds between the form being shown and submitted; undefined when the form did not say. */
  fillMs: number | undefined;
  minimumFillMs: number;
  message: string | undefined;
  email: string | undefined;
  /** Earlier leads of this website in the last day with the same message from the same email or phone. */
  sameMessageCount: number;
};

export type SpamVerdict = { spam: boolean; reasons: string[] };

/** Throwaway-mailbox domains seen in form spam (subdomains count too). */
export const DISPOSABLE_EMAIL_DOMAINS = [
  'mailinator.com',
  'guerrillamail.com',
  'guerrillamail.net',
  '10minutemail.com',
  'tempmail.com',
  'temp-mail.org',
  'yopmail.com',
  'trashmail.com',
  'sharklasers.com',
  'getnada.com',
  'dispostable.com',
  'maildrop.cc',
  'throwawaymail.com',
  'fakeinbox.com',
] as const;

const LINK = /\bhttps?:\/\/|\bwww\.[a-z0-9-]+\.[a-z]{2,}|\[url=|<a\s+href/i;
export const REPEATED_MESSAGE_THRESHOLD = 3;

export function isDisposableEmail(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return DISPOSABLE_EMAIL_DOMAINS.some((d) => domain === d || domain.endsWith(`.${d}`));
}

export function scoreLead(signals: SpamSignals): SpamVerdict {
  if (signals.honeypot && signals.honeypot.trim() !== '') return { spam: true, reasons: ['honeypot'] };
  const reasons: string[] = [];
  if (signals.fillMs !== undefined && signals.fillMs < signals.minimumFillMs) reasons.push('fill-time');
  if (signals.message && LINK.test(signals.message)) reasons.push('links');
  if (signals.email && isDisposableEmail(signals.email)) reasons.push('disposable-email');
  if (signals.message && signals.message.trim().length >= 20 && signals.sameMessageCount >= REPEATED_MESSAGE_THRESHOLD) reasons.push('repeated-message');
  return { spam: reasons.length >= 2, reasons };
}
