/**
 * Rules of the lead forms that are not field validation (SPEC §2, §3, §4, §9): the category a form
 * sends and its analytics event id, the success page address, multi-step progress and navigation,
 * stored user details. Pure and client-safe.
 */

import { CATEGORIES } from './categories';

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

export type CarType = 'new' | 'used' | 'demo';

/** The enquiry type of a car's forms: used stock is a used vehicle enquiry, new and demo new. */
export function vehicleCategory(carType: string): string {
  return carType === 'used' ? CATEGORIES.usedVehicle : CATEGORIES.newVehicle;
}

/** SPEC §2: demo → demo-vehicle-enquiry, used → used-vehicle-enquiry, anything else → new-vehicle-enquiry. */
export function successCategorySlug(carType: string | null | undefined): string {
  if (carType === 'demo') return 'demo-vehicle-enquiry';
  if (carType === 'used') return 'used-vehicle-enquiry';
  return 'new-vehicle-enquiry';
}

/**
 * The success page's category slug: for a car, by its type (SPEC §2, successCategorySlug); without
 * a car, the category as a slug ('Service Enquiry' → service-enquiry).
 */
export function successSlug(carType: string | null | undefined, category: string): string {
  if (carType) return successCategorySlug(carType);
  return (
    category
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'general-enquiry'
  );
}

/** /success?category={slug} plus the extra key=value pairs (empty values left out). */
export function successPath(slug: string, extra: Record<string, string | number | null | undefined> = {}): string {
  const query = new URLSearchParams({ category: slug });
  for (const [key, value] of Object.entries(extra)) {
    if (value !== null && value !== undefined && value !== '') query.append(key, String(value));
  }
  return `/success?${query.toString()}`;
}

/** SPEC §4: step index / step count as a percentage, 100 when complete. */
export function progressPercent(stepIndex: number, stepCount: number, complete = false): number {
  if (complete || stepCount <= 0) return 100;
  const index = Math.min(Math.max(stepIndex, 0), stepCount);
  return Math.round((index / stepCount) * 100);
}

/**
 * Where a multi-step form is: the current step, the steps visited to get there (Go Back walks
 * them, so it returns to a step skipped from) and the steps skipped.
 */
export type StepState = { current: number; history: number[]; skipped: number[] };

export const initialStepState: StepState = { current: 0, history: [], skipped: [] };

/** Forward only below the last step; skipping records the step. */
export function advanceStep(state: StepState, stepCount: number, skip = false): StepState {
  if (state.current >= stepCount - 1) return state;
  const skipped = skip
    ? [...new Set([...state.skipped, state.current])].sort((a, b) => a - b)
    : state.skipped.filter((step) => step !== state.current);
  return { current: state.current + 1, history: [...state.history, state.current], skipped };
}

/** Back to the step the visitor came from (the skipped step after a skip). */
export function goBackStep(state: StepState): StepState {
  if (state.history.length === 0) return state;
  const history = state.history.slice(0, -1);
  return { current: state.history[state.history.length - 1]!, history, skipped: state.skipped };
}

/** SPEC §2: the alert is styled as success on the 'User Details' step, destructive elsewhere. */
export function alertTone(heading: string): 'success' | 'destructive' {
  return heading === 'User Details' ? 'success' : 'destructive';
}

/** SPEC §2 labels of the form screens (the messages are LEAD_MESSAGES). */
export const FORM_LABELS = {
  loading: 'Loading',
  goBack: 'Go Back',
  continue: 'Continue',
  submit: 'Submit',
} as const;

/** Stored user details (SPEC §3), kept in the browser after a successful submit. */
export const STORED_DETAIL_KEYS = ['name', 'last_name', 'email', 'phone', 'postcode'] as const;
export type StoredUserDetails = Partial<Record<(typeof STORED_DETAIL_KEYS)[number], string>>;

/** Only the known keys, only strings, each at most 200 characters: storage is visitor-editable. */
export function parseStoredDetails(raw: string | null): StoredUserDetails {
  if (!raw) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return {};
  }
  if (!value || typeof value !== 'object') return {};
  const details: StoredUserDetails = {};
  for (const key of STORED_DETAIL_KEYS) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'string' && field.length <= 200) details[key] = field;
  }
  return details;
}

/**
 * Forms whose success page names them rather than the category (/success?category=…&form=…): a
 * test drive of a used car keeps the spec's category slug (used-vehicle-enquiry) but the visitor
 * reads that their test drive booking was received.
 */
export const SUCCESS_FORMS = { 'test-drive': 'test drive booking' } as const;
export type SuccessForm = keyof typeof SUCCESS_FORMS;

/** What the success page says was received: the form's name, else the category's words. */
export function successLabel(slug: string | null | undefined, form: string | null | undefined): string {
  return form && Object.hasOwn(SUCCESS_FORMS, form) ? SUCCESS_FORMS[form as SuccessForm] : successCategoryLabel(slug);
}

/** 'used-vehicle-enquiry' → 'used vehicle enquiry'; anything that is not a slug reads 'enquiry'. */
export function successCategoryLabel(slug: string | null | undefined): string {
  if (!slug || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug) || slug.length > 60) return 'enquiry';
  return slug.replace(/-/g, ' ');
}
