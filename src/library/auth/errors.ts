// The pipeline's refusals (companion §10.8), as their own error types so the HTML error handler
// can tell them from a handler's 401/403: a page navigation shows the 403 page with its own
// wording, and an expired session never bounces a form back to itself.
import { HttpError } from '../../core/http/errors.js';

export const AUTH_REQUIRED = 'authentication required';
export const CSRF_MESSAGE = 'invalid or missing CSRF token';
export const ROLE_MESSAGE = 'insufficient permissions';

/** No principal, or a bad bearer token: 401. */
export class CredentialError extends HttpError {
  constructor(message = AUTH_REQUIRED) {
    super(401, message, {}, { 'WWW-Authenticate': 'Bearer' });
  }
}

/** A cookie-authenticated write without its CSRF token: 403. */
export class CsrfError extends HttpError {
  readonly pageMessage = 'Your session could not be verified. Reload the page and try again.';
  constructor() {
    super(403, CSRF_MESSAGE);
  }
}

/** The role lacks the route's capability: 403. */
export class RoleError extends HttpError {
  readonly pageMessage = 'Your role does not have permission to view this page.';
  constructor() {
    super(403, ROLE_MESSAGE);
  }
}
