/**
 * Errors of every API route (visitor and dealer), each with its HTTP status. Bodies are always
 * `{ error: string, fields?: Record<string, string> }`; nothing else (no stack, no SQL) is sent.
 */

export const HTTP_MESSAGES = {
  unauthorized: 'Valid API credentials are required',
  notFound: 'Not found',
  malformedJson: 'Malformed JSON body',
  badRequest: 'Bad request',
  tooLarge: 'Request body too large',
  validation: 'Validation failed',
  internal: 'Internal server error',
} as const;

/** What a visitor route answers when the request itself is not at fault (SPEC §5, §8 wording). */
export const VISITOR_MESSAGES = {
  unknownWebsite: 'Unknown website',
  invalid: 'Please check the highlighted fields.',
  unavailable: 'We could not save your enquiry just now. Please try again in a minute.',
  failed: 'An unexpected error occured',
} as const;

/** The same answers for the visitor APIs that save nothing the visitor typed (analytics events, the car phone). */
export const VISITOR_SERVICE_MESSAGES = {
  unavailable: 'Unavailable just now. Please try again shortly.',
  failed: 'An unexpected error occurred',
} as const;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export class UnauthorizedError extends HttpError {
  constructor() {
    super(401, HTTP_MESSAGES.unauthorized);
  }
}

/** Nonexistent, or not the caller's: the two are indistinguishable on purpose. */
export class NotFoundError extends HttpError {
  constructor() {
    super(404, HTTP_MESSAGES.notFound);
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string = HTTP_MESSAGES.badRequest, fields?: Record<string, string>) {
    super(400, message, fields);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor() {
    super(413, HTTP_MESSAGES.tooLarge);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

export class ValidationError extends HttpError {
  constructor(fields: Record<string, string>) {
    super(422, HTTP_MESSAGES.validation, fields);
  }
}
