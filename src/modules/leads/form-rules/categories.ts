/**
 * The lead categories (SPEC §3): their names, the enquiry type select's options and the car-page
 * subcategories. Client-safe, on their own: a form that names a category loads nothing else of the
 * lead rules (a category's normal form and event id are flow.ts's).
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
