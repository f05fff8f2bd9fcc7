/**
 * The identity domain's public face for other domains' browser and server code: only what they use.
 * Browser-safe: nothing here reaches a server-only file (server.ts holds those).
 */

export { ResendCodeButton } from './components/resend-code-button';
export { GarageList } from './components/garage-list';
export { useSignedIn } from './components/use-garage';
