/** The lead categories and car-page subcategories (SPEC §3), on their own: a form that names one loads nothing else of the lead rules. */

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
