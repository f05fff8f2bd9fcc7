/**
 * The widgets domain's public face for other domains' browser and server code: only what they use.
 * Browser-safe: nothing here reaches a server-only file (server.ts holds those).
 */

export { trackEvent } from './components/analytics-client';
export { CLIENT_EVENTS } from './widgets.events.catalogue';
