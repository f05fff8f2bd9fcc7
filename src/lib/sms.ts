import 'server-only';
import { env } from './env';

/**
 * SMS out: Twilio's Messages API where configured (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and
 * TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID), else the local default, which sends nothing and
 * leaves the message in the outbox (shown on the demo outbox page), so a fresh clone signs in.
 * Either answers a short description for the outbox record, or throws (timeout 15 s, SPEC §9).
 */

export const SMS_TIMEOUT_MS = 15_000;

export type SmsMessage = { to: string; from: string; body: string };
export type SmsSender = (message: SmsMessage) => Promise<string>;

export type TwilioConfig = { accountSid: string; authToken: string; from: string | null; messagingServiceSid: string | null; baseUrl?: string };

export const outboxOnlySms: SmsSender = async () => 'kept in outbox (no SMS provider configured)';

export function twilioSms(config: TwilioConfig): SmsSender {
  return async ({ to, from, body }) => {
    const form = new URLSearchParams({ To: to, Body: body });
    if (config.messagingServiceSid) form.set('MessagingServiceSid', config.messagingServiceSid);
    else form.set('From', from || config.from || '');
    const base = config.baseUrl ?? 'https://api.twilio.com';
    const response = await fetch(`${base}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: form,
      signal: AbortSignal.timeout(SMS_TIMEOUT_MS),
    });
    const answer = (await response.json().catch(() => ({}))) as { sid?: string; message?: string };
    if (!response.ok) throw new Error(`twilio answered ${response.status}: ${answer.message ?? ''}`.slice(0, 300));
    return `twilio ${answer.sid ?? 'accepted'}`;
  };
}

/** The platform's SMS sender: Twilio where configured, else the outbox alone (phone codes, visitors' alerts). */
export function defaultSmsSender(): SmsSender {
  const twilio = env().twilio;
  return twilio ? twilioSms(twilio) : outboxOnlySms;
}
