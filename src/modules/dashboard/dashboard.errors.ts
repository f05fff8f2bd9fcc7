/**
 * Errors of the Dashboard API, each with its HTTP status. Bodies are always
 * `{ error: string, fields?: Record<string, string> }`; nothing else (no stack, no SQL) is sent.
 */

export const DASHBOARD_MESSAGES = {
  unauthorized: 'Valid API credentials are required',
  notFound: 'Not found',
  malformedJson: 'Malformed JSON body',
  badRequest: 'Bad request',
  tooLarge: 'Request body too large',
  validation: 'Validation failed',
  internal: 'Internal server error',
} as const;

export class DashboardError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'DashboardError';
  }
}

export class UnauthorizedError extends DashboardError {
  constructor() {
    super(401, DASHBOARD_MESSAGES.unauthorized);
  }
}

/** Nonexistent, or not the caller's: the two are indistinguishable on purpose. */
export class NotFoundError extends DashboardError {
  constructor() {
    super(404, DASHBOARD_MESSAGES.notFound);
  }
}

export class BadRequestError extends DashboardError {
  constructor(message: string = DASHBOARD_MESSAGES.badRequest, fields?: Record<string, string>) {
    super(400, message, fields);
  }
}

export class PayloadTooLargeError extends DashboardError {
  constructor() {
    super(413, DASHBOARD_MESSAGES.tooLarge);
  }
}

export class ConflictError extends DashboardError {
  constructor(message: string) {
    super(409, message);
  }
}

export class ValidationError extends DashboardError {
  constructor(fields: Record<string, string>) {
    super(422, DASHBOARD_MESSAGES.validation, fields);
  }
}
