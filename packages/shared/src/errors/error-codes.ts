/**
 * Every stable error code the API answers with, and its HTTP status. The translated message of a code is the
 * locale key `errors.<CODE>`; clients may rely on the code, never on the message text.
 */
export const ERROR_STATUS = {
  INVALID_JSON: 400,
  BAD_REQUEST: 400,
  TOKEN_INVALID: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  SESSION_EXPIRED: 401,
  FORBIDDEN: 403,
  CSRF_INVALID: 403,
  SIGNUP_DISABLED: 403,
  NOT_FOUND: 404,
  EMAIL_TAKEN: 409,
  DIVISION_EXISTS: 409,
  LIMIT_REACHED: 409,
  ALREADY_ACTIVE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_FAILED: 422,
  CURRENT_PASSWORD_WRONG: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
