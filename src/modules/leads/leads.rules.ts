/**
 * Lead rules shared by the forms and the API (client-safe): category normalisation, analytics
 * event ids (SPEC §4, §9) and the success page category (SPEC §2).
 */

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

/** SPEC §2: demo → demo-vehicle-enquiry, used → used-vehicle-enquiry, anything else → new-vehicle-enquiry. */
export function successCategorySlug(carType: string | null | undefined): string {
  if (carType === 'demo') return 'demo-vehicle-enquiry';
  if (carType === 'used') return 'used-vehicle-enquiry';
  return 'new-vehicle-enquiry';
}

/** The header in which later steps present the secret the first step answered (leads.tokens.ts). */
export const EDIT_TOKEN_HEADER = 'X-Edit-Token';
