// The one error type of both services: every failure a client can cause is an HttpError,
// and the server's error handler maps it to `{error}` (plus optional extra fields).

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra members merged into the JSON error body, e.g. `errors` or `details`. */
    readonly extra: Record<string, unknown> = {},
    /** Response headers sent with the error (WWW-Authenticate, Allow). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new HttpError(400, message, extra);
export const notFound = (message = 'not found') => new HttpError(404, message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new HttpError(409, message, extra);
export const forbidden = (message = 'insufficient permissions') => new HttpError(403, message);
