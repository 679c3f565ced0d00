// One login flow for POST /v1/auth/login and the /login form (companion §10.4, §10.7): throttle,
// check the credentials, mint the session. Credential failures count against the limiter;
// infrastructure failures do not, and are written to the audit log.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../core/http/errors.js';
import type { AuditLog } from '../audit/service.js';
import { clientIp, SESSION_COOKIE } from './pipeline.js';
import type { LoginLimiter } from './rate-limit.js';
import { INVALID_LOGIN, type AuthService, type NewSession } from './service.js';

export const TOO_MANY_ATTEMPTS = 'too many login attempts; try again later';

export class LoginFlow {
  constructor(
    private readonly auth: AuthService,
    private readonly limiter: LoginLimiter,
    private readonly audit: AuditLog,
    private readonly options: { trustProxyHeaders: boolean; cookieSecure: boolean },
  ) {}

  async login(req: FastifyRequest, username: string, password: string): Promise<NewSession> {
    const attempt = this.limiter.begin(clientIp(req, this.options.trustProxyHeaders), username);
    if (!attempt) throw new HttpError(429, TOO_MANY_ATTEMPTS);
    try {
      const user = await this.auth.checkCredentials(username, password);
      if (!user) {
        attempt.failed();
        throw new HttpError(401, INVALID_LOGIN);
      }
      const session = await this.auth.openSession(user, { userAgent: String(req.headers['user-agent'] ?? ''), ip: req.ip });
      attempt.succeeded();
      return session;
    } catch (err) {
      attempt.abandoned(); // no-op once failed() or succeeded() ran
      if (!(err instanceof HttpError)) {
        await this.audit.note({
          level: 'error',
          action: 'system',
          entityType: 'login',
          entityName: username.slice(0, 255),
          message: `login failed unexpectedly: ${(err as Error).message ?? String(err)}`.slice(0, 1000),
          origin: { path: req.url.slice(0, 500), userAgent: String(req.headers['user-agent'] ?? '').slice(0, 500), ip: req.ip },
        });
      }
      throw err;
    }
  }

  /** Sets the session cookie (companion §10.4): HttpOnly, SameSite=Lax, fixed lifetime. */
  setCookie(reply: FastifyReply, token: string): void {
    const seconds = Math.floor(this.auth.sessionTtlMs / 1000);
    const expires = new Date(Date.now() + this.auth.sessionTtlMs).toUTCString();
    reply.header('set-cookie', `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${seconds}; Expires=${expires}${this.options.cookieSecure ? '; Secure' : ''}`);
  }

  clearCookie(reply: FastifyReply): void {
    reply.header('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=-1; Expires=Thu, 01 Jan 1970 00:00:00 GMT${this.options.cookieSecure ? '; Secure' : ''}`);
  }

  /** Ends the request's session, if it has one. */
  async logout(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (req.credential?.kind === 'session') await this.auth.closeSession(req.credential.sessionId);
    this.clearCookie(reply);
  }
}
