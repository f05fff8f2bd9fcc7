/**
 * The lead categories (SPEC §3): their names, the enquiry type select's options, the car-page
 * subcategories, and a category's normal form and analytics event id (SPEC §4, §9). Client-safe, on
 * their own: a form that names a category loads nothing else of the lead rules.
 */

export const CATEGORIES = {
  general: 'General Enquiry',
  service: 'Service Enquiry',
  parts: 'Parts Enquiry',
  newVehicle: 'New Vehicle Enquiry',
  usedVehicle: 'Used Vehicle Enquiry',
  careers: 'Careers Enquiry',
  sellMyCar: 'Sell My Car Enquiry',
  testDrive: 'Test Drive Enquiry',
  tradeIn: 'Trade-In Enquiry',
  finance: 'Finance Enquiry',
} as const;

/** Subcategories of the car page forms. */
export const SUBCATEGORIES = { testDrive: 'Test Drive', requestPhotos: 'Request Photos', photography: 'Photography' } as const;

/** The enquiry type select's options (SPEC §3: each followed by ' Enquiry'). */
export const ENQUIRY_TYPES = [
  'General Enquiry',
  'Service Enquiry',
  'Parts Enquiry',
  'New Vehicle Enquiry',
  'Used Vehicle Enquiry',
  'Fleet Enquiry',
  'Finance Enquiry',
  'Careers Enquiry',
  'Sell My Car Enquiry',
] as const;

export const EVENT_IDS = {
  /** Default form submission. */
  enquiry: 22,
  careers: 51,
  testDrive: 14,
} as const;

/** Event id of a lead category: careers 51, test drives 14, every other enquiry 22 (SPEC §4). */
// A Map, not an object literal: a category named 'toString' or '__proto__' must find nothing.
const EVENT_ID_BY_CATEGORY = new Map<string, number>([
  ['Careers Enquiry', EVENT_IDS.careers],
  ['Test Drive Enquiry', EVENT_IDS.testDrive],
  ['Book a Test Drive', EVENT_IDS.testDrive],
]);

export type NormalisedCategory = { category: string; subcategory: string | undefined; eventId: number };

/** 'Careers Enquiry' becomes 'General Enquiry' with subcategory 'Career Enquiry' and event id 51. */
export function normaliseCategory(category: string, subcategory?: string): NormalisedCategory {
  const eventId = EVENT_ID_BY_CATEGORY.get(category) ?? EVENT_IDS.enquiry;
  if (category === 'Careers Enquiry') return { category: 'General Enquiry', subcategory: 'Career Enquiry', eventId };
  return { category, subcategory, eventId };
}
