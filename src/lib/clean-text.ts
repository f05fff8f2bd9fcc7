/**
 * The one rule for text that reaches the database (client-safe). Text a person typed is checked by
 * isCleanText and refused with a message they can act on; text nobody typed (page addresses, the
 * visitor's trail, tracking parameters, event URLs) is cleaned by cleanUntypedText and never a
 * reason to refuse. Either way no NUL, control character or lone surrogate is stored (PostgreSQL
 * refuses NUL in text and a lone surrogate is not valid UTF-8).
 */

// Control characters other than tab, line feed and carriage return; unpaired surrogates; NUL.
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
export const LINE_BREAKS = /[\r\n\t]/;
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const CONTROL_CHARS_ALL = new RegExp(CONTROL_CHARS.source, 'g');
const LINE_BREAKS_ALL = new RegExp(LINE_BREAKS.source, 'g');
const LONE_SURROGATE_ALL = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * Text the visitor did not type (the page address, the visitor's trail, tracking parameters):
 * control characters, line breaks and lone surrogates become spaces, runs of spaces one, and it is
 * cut to `max` characters. Such text is cleaned, never a reason to refuse a lead.
 */
export function cleanUntypedText(value: string, max: number): string {
  const cleaned = value.replace(LONE_SURROGATE_ALL, ' ').replace(CONTROL_CHARS_ALL, ' ').replace(LINE_BREAKS_ALL, ' ').replace(/ {2,}/g, ' ').trim();
  // Cutting may split a surrogate pair; the half left over is dropped.
  return cleaned.slice(0, max).replace(/[\uD800-\uDBFF]$/, '').trim();
}

export function isCleanText(value: string, multiline: boolean): boolean {
  return !CONTROL_CHARS.test(value) && !LONE_SURROGATE.test(value) && (multiline || !LINE_BREAKS.test(value));
}

