import { z } from 'zod';
import { REQUIRED_MESSAGE } from '@/lib/form-messages';
import { CODE_MESSAGES } from './identity.messages';

/** Phone codes (SPEC §5, §8): one place for their messages and request bodies. Client-safe. */

export { CODE_LENGTH } from './identity.messages';
export { CODE_MESSAGES } from './identity.messages';

const phone = z.string({ error: REQUIRED_MESSAGE }).trim().min(1, REQUIRED_MESSAGE).max(40, CODE_MESSAGES.phone);
const optionalText = (max: number) => z.string().trim().max(max).optional();

/** POST /api/phone-codes: the number, and what the visitor told us (SPEC §3 contact sign-in metadata). */
export const sendCodeSchema = z.strictObject({
  phone,
  first_name: optionalText(100),
  last_name: optionalText(100),
  email: optionalText(254),
});

/** POST /api/phone-codes/verify. */
export const verifyCodeSchema = z.strictObject({
  phone,
  code: z
    .string({ error: CODE_MESSAGES.required })
    .trim()
    .min(1, CODE_MESSAGES.required)
    .regex(/^\d{6}$/, CODE_MESSAGES.digits),
});

/** POST /api/rate-limit {phone}. */
export const rateLimitSchema = z.strictObject({ phone });
