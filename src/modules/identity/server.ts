/**
 * The identity domain's public face for other domains' server code (queries, commands, server-side
 * rules): only what they use. Browser code imports index.ts.
 */

export { codePhone, codePhoneMessage, formPhoneVerified, smsFrom, spendPhoneVerification } from './identity.codes';
export { platformSecret } from './identity.sessions';
export { withoutSessionCookies } from './identity.http';
