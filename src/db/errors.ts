/**
 * Whether an error means the database cannot be reached or cannot answer in time (as opposed to a
 * bad query): refused or dropped connections, connection and statement timeouts, a server shutting
 * down, out of connections or resources, or refusing connections to the database. Pages and APIs
 * answer these with a friendly 'try again' state (503 with Retry-After) instead of an error.
 * The bounds themselves are decision 055 (src/db/timeouts.ts).
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);
/**
 * SQLSTATE class 08 (connection exception), class 53 (insufficient resources: too many
 * connections, out of memory, disk full), 55000 (the database is not accepting connections:
 * ALLOW_CONNECTIONS false), 57P01-57P05 (admin or crash shutdown, cannot connect now, database
 * dropped, idle session timeout), 57014 (statement timeout), 25P03 (idle-in-transaction timeout).
 */
const UNAVAILABLE_SQLSTATES = /^(08...|53...|55000|57P0[1-5]|57014|25P03)$/;
/** What node-postgres and its pool say without a code: a connection dropped or not made in time, a statement not answered in time. */
const UNAVAILABLE_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error/i;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}
