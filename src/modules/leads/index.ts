/**
 * The leads domain's public face for other domains' browser and server code: only what they use.
 * Browser-safe: nothing here reaches a server-only file (server.ts holds those).
 */

export { FieldControl, fieldId, FormAlert, Honeypot, Spinner, StepProgress } from './components/form-controls';
export { createValuation, newIdempotencyKey, saveValuationData, sendLead } from './components/lead-client';
export { storedTrailFields } from './components/visit-recorder';
export { fieldError, type FieldValue, submitValue } from './form-rules/field-checks';
export { contactFields, type FieldDef, isFieldRequired, type LeadCar, type LeadSite, messageField, optInField, VALUATION_FIELD_NAMES, valuationVehicleFields } from './form-rules/fields';
export { CATEGORIES } from './form-rules/categories';
export { progressPercent, successPath } from './form-rules/flow';
export { EDIT_TOKEN_HEADER } from './leads.edit-token';
export { LEAD_MESSAGES } from './form-rules/messages';
export { refusedForm, type RefusedForm } from './leads.refused-form';

/** The field rules with the phone rules' metadata, loaded when a form first needs them (decision 033's budget). */
export const loadFieldRules = () => import('./form-rules/field-checks');
