/**
 * The alerts domain's public face for browser and server pages: saved searches' controls and the alert settings (issue 35).
 * Browser-safe: nothing here reaches a server-only file.
 */

export { SaveSearchButton } from './components/save-search-button';
export { SavedSearchesList } from './components/saved-searches-list';
export { AlertSettings } from './components/alert-settings';
