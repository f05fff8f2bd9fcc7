/** SPEC §5's messages that more than one visitor form shows: a required field left empty, and the phone code's field. */
export const REQUIRED_MESSAGE = '*This is a required field.';
export const CODE_REQUIRED_MESSAGE = 'This is a required field.';
export const CODE_DIGITS_MESSAGE = 'Code must be 6 digits.';
