import { CODE_DIGITS_MESSAGE, CODE_REQUIRED_MESSAGE } from '@/lib/form-messages';

/** Phone-code messages (SPEC §5, §8), client-safe without zod: the sign-in form imports them. */

export const CODE_MESSAGES = {
  invalid: 'The verification code is invalid. Please try again.',
  required: CODE_REQUIRED_MESSAGE,
  digits: CODE_DIGITS_MESSAGE,
  rateLimit: 'Too many verification attempts. Please try again later.',
  sendFailed: 'We could not send the code just now. Please try again in a minute.',
  phone: 'Please enter a mobile number we can text.',
} as const;

export const CODE_LENGTH = 6;
