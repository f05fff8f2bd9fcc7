import type { z } from 'zod';
import { ValidationError } from './errors';

/** Field errors of a failed parse: the first message per field path ('lead.email' → 'invalid email address'). */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : 'body');
    fields[key] ??= issue.message;
  }
  return fields;
}

/** The body parsed with a schema; 422 with the field errors when it does not fit. */
export function parseWith<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
  return parsed.data;
}
