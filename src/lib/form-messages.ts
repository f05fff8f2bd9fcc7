/** SPEC §5's message for a required field left empty, shown by every visitor form. */
export const REQUIRED_MESSAGE = '*This is a required field.';
