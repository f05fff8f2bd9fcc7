/**
 * Every message of the lead forms and the lead API (SPEC §5, §8), on their own: browser code that
 * shows a message but runs no field check (the lead client, the checkout journey) imports them
 * without the checks' phone rules.
 */
import { VISITOR_MESSAGES } from '@/lib/http/errors';
import { CODE_DIGITS_MESSAGE, CODE_REQUIRED_MESSAGE, REQUIRED_MESSAGE } from '@/lib/form-messages';

export const LEAD_MESSAGES = {
  required: REQUIRED_MESSAGE,
  email: 'invalid email address',
  name: 'Please use alphabetical characters only.',
  postcode: 'Invalid postcode. Please enter a 4-digit number.',
  postcodeNotFound: 'Invalid postcode',
  codeRequired: CODE_REQUIRED_MESSAGE,
  code: CODE_DIGITS_MESSAGE,
  state: 'Please choose an Australian state or territory.',
  leadFailed: VISITOR_MESSAGES.failed,
  enquiryFailed: 'An error occurred when submitting this form',
  checkFields: VISITOR_MESSAGES.invalid,
  /** SPEC §8: logged when a valuation cannot be saved; the visitor still sees success. */
  valuationSaveFailed: 'Failed to save valuation data',
  tooLong: (max: number) => `Please use at most ${max} characters.`,
  invalidText: 'Please remove unusual characters.',
  option: 'Please choose one of the options.',
  year: 'Please enter a 4-digit year.',
  km: 'Please enter whole kilometres, digits only.',
  date: 'Please choose a real date.',
  pastDate: 'Please choose today or a later date.',
} as const;

/** Files a lead may carry (POST /api/leads/with-files, a multipart PUT): the forms check these before sending. */
export const MAX_FILES = 5;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** The kinds kept (read from each file's first bytes on the server). */
export const FILE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'application/pdf'] as const;

export const FILE_MESSAGES = {
  tooMany: `Please attach at most ${MAX_FILES} files.`,
  tooLarge: `Each file must be smaller than ${MAX_FILE_BYTES / 1024 / 1024} MB.`,
  type: 'Only photos (JPEG, PNG, WebP, HEIC) and PDF documents can be attached.',
  empty: 'The file is empty.',
  multipart: 'Send the lead as multipart/form-data with a "lead" field.',
} as const;

/**
 * The browser's check of chosen files (the server sniffs each file's type again): how many, how
 * large, and a type among FILE_TYPES when the browser knows it (HEIC often comes without one).
 */
export function filesError(files: readonly { size: number; type: string }[], accept: readonly string[] = FILE_TYPES): string | null {
  if (files.length > MAX_FILES) return FILE_MESSAGES.tooMany;
  for (const file of files) {
    if (file.size === 0) return FILE_MESSAGES.empty;
    if (file.size > MAX_FILE_BYTES) return FILE_MESSAGES.tooLarge;
    if (file.type && !accept.includes(file.type)) return FILE_MESSAGES.type;
  }
  return null;
}
