import 'server-only';
import { env } from '@/lib/env';
import { DAY_MS, HOUR_MS, waitPhrase, type RateLimit } from '@/lib/rate-limit';

/**
 * Per-IP and per-phone limits on lead submissions and their later steps, counted by the shared
 * limiter (src/lib/rate-limit.ts) in the statement that stores the lead (decision 018).
 */

export const LIMIT_MESSAGES = {
  ip: (retryAfterSeconds: number) =>
    `We have received a lot of enquiries from your connection. Please try again in ${waitPhrase(retryAfterSeconds)}, or call us.`,
  phone: (retryAfterSeconds: number) =>
    `We have already received several enquiries with this phone number. Please try again in ${waitPhrase(retryAfterSeconds)}, or call us.`,
} as const;

export type LimitOptions = { perIpPerHour: number; perPhonePerDay: number };

/** The limits one submission counts against: its IP's and its phone's (per website), IP first. */
export function leadLimits(
  websiteId: number,
  ip: string | null,
  phone: string | null | undefined,
  options: LimitOptions = { perIpPerHour: env().leadLimitPerIp, perPhonePerDay: env().leadLimitPerPhone },
): RateLimit[] {
  const limits: RateLimit[] = [];
  if (ip) limits.push({ key: `lead-ip:${websiteId}:${ip}`, max: options.perIpPerHour, durationMs: HOUR_MS, message: LIMIT_MESSAGES.ip });
  if (phone) limits.push({ key: `lead-phone:${websiteId}:${phone}`, max: options.perPhonePerDay, durationMs: DAY_MS, message: LIMIT_MESSAGES.phone, field: 'lead.phone' });
  return limits;
}

/** Later steps (PUT) of multi-step forms, per IP per hour: a form has a few, a script hammering ids many. */
export const LEAD_STEPS_PER_IP_PER_HOUR = 120;

export function leadStepLimits(websiteId: number, ip: string | null): RateLimit[] {
  if (!ip) return [];
  return [{ key: `lead-step-ip:${websiteId}:${ip}`, max: LEAD_STEPS_PER_IP_PER_HOUR, durationMs: HOUR_MS, message: LIMIT_MESSAGES.ip }];
}
