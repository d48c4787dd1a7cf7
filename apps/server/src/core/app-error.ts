import { ERROR_STATUS, type ErrorCode } from '@werkwissen/shared';

/** The one error type: a stable code (its HTTP status and translated message follow from it) and details. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(code);
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = () => new AppError('NOT_FOUND');
