import 'server-only';
import { HTTP_MESSAGES, BadRequestError, PayloadTooLargeError } from './errors';

/** Request bodies, read with a size bound. */

export const MAX_BODY_BYTES = 1024 * 1024;

/** The raw body, refused over maxBytes (413) whether or not Content-Length says so. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = request.headers.get('content-length');
  if (declared && /^\d+$/.test(declared) && Number(declared) > maxBytes) throw new PayloadTooLargeError();
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new PayloadTooLargeError();
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

/** A plain form post's fields (application/x-www-form-urlencoded), at most maxBytes; a repeated name keeps its first value. */
export async function readFormFields(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(new TextDecoder().decode(await readBodyBytes(request, maxBytes)))) {
    if (!(key in fields)) fields[key] = value;
  }
  return fields;
}

/** The request body parsed as JSON, refused over MAX_BODY_BYTES (413) or when not UTF-8 JSON (400). */
export async function readJsonBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const body = await readBodyBytes(request, maxBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new BadRequestError(HTTP_MESSAGES.malformedJson);
  }
  if (text.trim() === '') throw new BadRequestError(HTTP_MESSAGES.malformedJson);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequestError(HTTP_MESSAGES.malformedJson);
  }
}
