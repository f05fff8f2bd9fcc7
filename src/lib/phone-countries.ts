/** The countries whose phone numbers the platform accepts (a website's locale picks one). */
export const PHONE_COUNTRIES = ['AU', 'NZ', 'US'] as const;

export type PhoneCountry = (typeof PHONE_COUNTRIES)[number];
