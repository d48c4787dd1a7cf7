import { ERROR_STATUS, type ErrorCode } from '@werkwissen/shared';

/** The one error type: a stable code (its HTTP status and translated message follow from it) and details. */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  constructor(code: ErrorCode, details?: Record<string, unknown>, headers?: Record<string, string>) {
    super(code);
    this.code = code;
    this.details = details;
    this.headers = headers;
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = () => new AppError('NOT_FOUND');
