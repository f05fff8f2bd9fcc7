/**
 * The vehicles domain's public face for other domains' browser and server code: only what they use.
 * Browser-safe: nothing here reaches a server-only file (server.ts holds those).
 */

export { estimateData, estimateForValues, estimateLeadFields } from './components/vehicle-client';
export { InstantEstimate, LOOKUP_FIELDS, VehicleLookup } from './components/vehicle-lookup';
export type { Estimate } from './vehicles.estimate';
