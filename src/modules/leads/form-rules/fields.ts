import type { PhoneRule } from '@/lib/phone';
import { POSTCODE_RULES, AUSTRALIAN_STATES } from '@/lib/postcode';

/**
 * What a lead form is made of, as plain data: the server page describes the form (fields, steps,
 * the site's rules) and the client form engine renders and validates it. Client-safe.
 */

export type FieldKind =
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'phone'
  | 'postcode'
  | 'state'
  | 'text'
  | 'textarea'
  | 'select'
  | 'date'
  | 'year'
  | 'rego'
  | 'vin'
  | 'km'
  | 'checkbox'
  /** Files sent with the lead (photos, a CV): multipart to the lead API. */
  | 'file';

export type FieldOption = { value: string; label: string };

export type FieldDef = {
  /** The lead payload key (SPEC §3), also the input's name. */
  name: string;
  label: string;
  kind: FieldKind;
  required?: boolean;
  /**
   * Required unless the named field has a value: the rego and state identify a car, or its VIN
   * does (issue 31: a VIN, typed or found by the lookup, satisfies the identification step).
   */
  requiredUnless?: string;
  options?: FieldOption[];
  /** Full row on wide screens (messages, checkboxes); two to a row otherwise. */
  wide?: boolean;
  hint?: string;
  /** The input's maxlength and pattern attributes (a postcode's, from the website's country). */
  maxLength?: number;
  pattern?: string;
  /** A date input's earliest day (YYYY-MM-DD). */
  min?: string;
  /** A file input's accepted types and whether it takes several files. */
  accept?: string;
  multiple?: boolean;
};

export type StepDef = {
  heading: string;
  description?: string;
  fields: FieldDef[];
  /** The visitor may skip this step (recorded in skipped_steps). */
  optional?: boolean;
  /** 'vehicle': the step offers a rego or VIN lookup that fills the vehicle fields, and the instant estimate. */
  lookup?: 'vehicle';
};

/** The website's side of every form: who the lead is for and the rules its fields follow. */
export type LeadSite = {
  websiteSlug: string;
  /** The website's locale: its spelling (src/lib/format.ts spell) and dates. */
  locale: 'en-AU' | 'en-NZ' | 'en-US';
  /** The website's time zone (a date field refuses days before today there). */
  timeZone: string;
  dealershipSlug: string | null;
  phoneRule: PhoneRule;
  messageRequired: boolean;
  minimumFillSeconds: number;
  /** Show the visitor the instant valuation range (website configuration valuations.showInstantRange). */
  instantEstimate?: boolean;
  /** How the website writes money (for the instant range). */
  money?: { locale: string; currency: string };
};

/** A car a form is about (enquiry, test drive, photos, trade-in). */
export type LeadCar = {
  id: number;
  slug: string;
  name: string;
  carType: 'new' | 'used' | 'demo';
  dealershipId: number;
  dealershipSlug: string;
  locationId: number | null;
  stocknum: string;
  make: string;
  model: string;
  year: number;
  status: string;
  reserved: boolean;
};

export type LeadLocation = { id: number; name: string; dealershipSlug: string; locationType: string };


export const options = (values: readonly string[]): FieldOption[] => values.map((value) => ({ value, label: value }));

/**
 * The user details, written once: the forms show these fields and a postcode (contactFields), and
 * the API's userDetailsSchema (schemas.ts) is made from contactFields' answer.
 */
export const CONTACT_FIELDS = [
  { name: 'name', label: 'First Name', kind: 'first_name', required: true },
  { name: 'last_name', label: 'Last Name', kind: 'last_name' },
  { name: 'email', label: 'Email', kind: 'email', required: true },
  { name: 'phone', label: 'Phone', kind: 'phone', required: true },
] as const satisfies readonly FieldDef[];

/** The user details as the forms show them, with the postcode (label, maxlength and pattern by the website's country, its phone rule's) unless left out. */
export function contactFields(site?: Pick<LeadSite, 'phoneRule'>, { postcode = true }: { postcode?: boolean } = {}): FieldDef[] {
  if (!postcode) return [...CONTACT_FIELDS];
  const rule = POSTCODE_RULES[site?.phoneRule.country ?? 'AU'];
  return [...CONTACT_FIELDS, { name: 'postcode', label: rule.label, kind: 'postcode', required: true, maxLength: rule.maxLength, pattern: rule.pattern }];
}

export function messageField(site: LeadSite, label = 'Comments', required = site.messageRequired): FieldDef {
  return { name: 'message', label, kind: 'textarea', required, wide: true };
}

export function locationField(locations: LeadLocation[], label = 'Location'): FieldDef[] {
  if (locations.length < 2) return [];
  return [
    {
      name: 'location_id',
      label,
      kind: 'select',
      required: true,
      options: locations.map((location) => ({ value: String(location.id), label: location.name })),
    },
  ];
}

/** The preferred dealership select (website configuration leads.showDealershipSelect), when there is a choice. */
export function dealershipField(dealerships: { slug: string; name: string }[]): FieldDef[] {
  if (dealerships.length < 2) return [];
  return [
    {
      name: 'dealership_slug',
      label: 'Preferred dealership',
      kind: 'select',
      required: true,
      options: dealerships.map((dealership) => ({ value: dealership.slug, label: dealership.name })),
    },
  ];
}

export function sourceField(sourceOptions: string[]): FieldDef[] {
  if (sourceOptions.length === 0) return [];
  return [
    {
      name: 'where-did-you-hear-about-us',
      label: 'Where did you hear about us?',
      kind: 'select',
      options: options(sourceOptions),
    },
  ];
}

export const optInField: FieldDef = {
  name: 'opt_in',
  label: 'Keep me up to date with news and offers',
  kind: 'checkbox',
  wide: true,
};

/** How the visitor describes their car's condition (kept with the valuation). */
export const VEHICLE_CONDITIONS = ['Excellent', 'Good', 'Fair', 'Needs work'] as const;

/**
 * The visitor's own vehicle as a valuation records it (trade-in, sell my car, the online
 * purchase's trade-in): rego and state or VIN for the lookup, then make, model, year, km, condition.
 */
export function valuationVehicleFields(site: LeadSite): FieldDef[] {
  return [
    { name: 'rego', label: 'Registration (Rego)', kind: 'rego', requiredUnless: 'vin' },
    { name: 'state', label: 'Registration state', kind: 'state', requiredUnless: 'vin', options: options(AUSTRALIAN_STATES) },
    { name: 'vin', label: 'VIN', kind: 'vin', hint: '17 characters, on the registration papers. With the VIN, the rego and state are not needed.' },
    { name: 'make', label: 'Make', kind: 'text', required: true },
    { name: 'model', label: 'Model', kind: 'text', required: true },
    { name: 'year', label: 'Year', kind: 'year', required: true },
    { name: 'km', label: 'Odometer (km)', kind: 'km' },
    { name: 'condition', label: 'Condition', kind: 'select', options: options(VEHICLE_CONDITIONS) },
    messageField(site, 'Anything else we should know?', false),
  ];
}

/** Photos of the visitor's vehicle (trade-in, sell my car): up to five, sent with the lead. */
export const vehiclePhotosField: FieldDef = {
  name: 'photos',
  label: 'Photos of your vehicle',
  kind: 'file',
  accept: 'image/jpeg,image/png,image/webp,image/heic,.heic',
  multiple: true,
  wide: true,
  hint: 'Up to 5 photos (JPEG, PNG, WebP or HEIC), 10 MB each.',
};

/** A CV for a careers enquiry. */
export const cvField: FieldDef = {
  name: 'cv',
  label: 'Your CV',
  kind: 'file',
  accept: 'application/pdf,.pdf',
  wide: true,
  hint: 'A PDF of up to 10 MB.',
};

/** Whether the field must be filled, given the form's other values (required, or requiredUnless the other is blank). */
export function isFieldRequired(field: FieldDef, valueOf: (name: string) => unknown): boolean {
  if (field.required) return true;
  if (!field.requiredUnless) return false;
  const other = valueOf(field.requiredUnless);
  return !(typeof other === 'string' ? other.trim() : other);
}

/** The valuation's own keys among those fields (the message stays on the lead). */
export const VALUATION_FIELD_NAMES = ['rego', 'state', 'vin', 'make', 'model', 'year', 'km', 'condition'];
