/**
 * The header in which later steps present the secret the first step answered (leads.tokens.ts).
 * Client-safe and on its own: the checkout's form sends it without loading the lead forms' flow.
 */
export const EDIT_TOKEN_HEADER = 'X-Edit-Token';
