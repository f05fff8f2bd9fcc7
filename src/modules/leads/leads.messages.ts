/**
 * The lead forms' messages (SPEC §5, §8), on their own: browser code that shows a message but runs
 * no field check (the lead client, the checkout journey) imports them without the checks' phone rules.
 */

export const LEAD_MESSAGES = {
  required: '*This is a required field.',
  email: 'invalid email address',
  name: 'Please use alphabetical characters only.',
  postcode: 'Invalid postcode. Please enter a 4-digit number.',
  postcodeNotFound: 'Invalid postcode',
  codeRequired: 'This is a required field.',
  code: 'Code must be 6 digits.',
  state: 'Please choose an Australian state or territory.',
  leadFailed: 'An unexpected error occured',
  enquiryFailed: 'An error occurred when submitting this form',
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
