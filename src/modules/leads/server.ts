/**
 * The leads domain's public face for other domains' server code (queries, commands, server-side
 * rules): only what they use. Browser code imports index.ts.
 */

export { buildAdf } from './leads.adf';
export { leadJson } from './leads.commands';
export { successPath } from './leads.forms';
export { wakeDeliveryWorker } from './leads.delivery';
export { getLeadCarById, getLeadSite, listLeadLocations } from './leads.form-context';
export { editTokenMatches, hashEditToken, newEditToken } from './leads.tokens';
export { dbIdSchema, emailSchema, leadIdSchema, nameSchema, optional, postcodeSchema, userDetailsSchema } from './leads.validation';
