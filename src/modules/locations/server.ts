/**
 * The locations domain's public face for other domains' server code (queries, commands, server-side
 * rules): only what they use. Browser code imports index.ts.
 */

export { type AvailableBookings, type BookingKind, getAvailableBookingSlots } from './locations.bookings';
export { configuredGeocoder, type Geocoder } from './locations.geocoding';
export { DISPLAY_ORDER, WEEKDAY_NAMES, weeklyIntervals } from './locations.hours';
export { getWebsiteSessionData, listVisibleLocations, type SpecialHoursJson, type WebsiteSessionData } from './locations.queries';
export type { LocationSummary, SpecialHoursEntry } from './locations.types';
export { checkPostcode, POSTCODE_MESSAGES, postcodeCountry } from './locations.validation';
