/**
 * Text rules shared by the vehicle-ad feeds (decision 038). Pure and client-safe.
 *
 * A car's fields come from dealers' stock systems and may hold anything: control characters
 * (NUL, form feeds, ESC) that XML 1.0 cannot carry at all and that break a CSV reader, unpaired
 * UTF-16 surrogates that no encoder can write, markup characters, quotes and commas. Everything
 * written to a feed passes through here first.
 */

/**
 * Characters XML 1.0 does not allow (C0 controls other than tab, newline and carriage return; DEL
 * and the C1 controls, which feeds have no use for; U+FFFE and U+FFFF) and unpaired surrogates.
 */
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Multi-line text (a description): forbidden characters removed, line breaks kept as \n. */
export function cleanText(text: string | null | undefined, maxLength = Infinity): string {
  if (text == null) return '';
  const cleaned = text.replace(NOT_TEXT, '').replace(/\r\n?/g, '\n').replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  return truncate(cleaned, maxLength);
}

/** One-line text (a title, a make, a colour): also every run of whitespace made one space. */
export function cleanLine(text: string | null | undefined, maxLength = Infinity): string {
  if (text == null) return '';
  return truncate(text.replace(NOT_TEXT, '').replace(/\s+/g, ' ').trim(), maxLength);
}

/** At most maxLength UTF-16 units, never cutting a surrogate pair in half. */
function truncate(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  let cut = text.slice(0, maxLength);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return cut.trimEnd();
}

/** Text for XML element content or a double-quoted attribute: the five reserved characters escaped. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
}

/** A cell a spreadsheet would read as a formula (OWASP CSV injection): it starts with = + - @, a tab or a CR. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain decimal number (-33.8688, 42): data in every spreadsheet, never a formula (decision 056). */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * A cell neutralised as OWASP recommends: prefixed with a single quote when it would start a
 * formula, so a spreadsheet shows it as text. A plain number is left as it is: a negative latitude
 * or longitude (every Australian dealer's) must stay a number for the feed's reader.
 */
export function csvSafeCell(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/**
 * One CSV field (RFC 4180): neutralised (csvSafeCell), then quoted when it holds a comma, a double
 * quote, a line break or leading or trailing space, with each double quote doubled.
 */
export function csvField(raw: string): string {
  const value = csvSafeCell(raw);
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One CSV record, ended by CRLF as RFC 4180 writes it. */
export function csvRecord(values: readonly string[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** An absolute http(s) URL of a path or URL on the website's origin; null when it cannot be one. */
export function absoluteUrl(origin: URL, pathOrUrl: string | null | undefined): string | null {
  const value = pathOrUrl?.trim();
  if (!value) return null;
  try {
    const url = new URL(value, origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.toString();
  } catch {
    return null;
  }
}
