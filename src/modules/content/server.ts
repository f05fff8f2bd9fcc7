/**
 * The content domain's public face for other domains' server code (queries, commands, server-side
 * rules): only what they use. Browser code imports index.ts.
 */

export { ContactAside } from './components/content-layout';
