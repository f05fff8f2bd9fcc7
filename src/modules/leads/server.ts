/**
 * The leads domain's public face for other domains' server code (queries, commands, server-side
 * rules): only what they use. Browser code imports index.ts.
 */

export { CareersEnquirySection } from './components/careers-enquiry';
export { buildAdf } from './leads.adf';
export { leadJson } from './leads.commands';
export { wakeDeliveryWorker } from './leads.delivery';
export { getLeadCarById, getLeadSite, listLeadLocations } from './leads.form-context';
export { editTokenMatches, hashEditToken, newEditToken } from './leads.tokens';
export { dbIdSchema, emailSchema, leadIdSchema, nameSchema, optional, postcodeSchema, userDetailsSchema } from './leads.validation';
