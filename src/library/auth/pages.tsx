// /login and /logout (companion §6.4, §10.4): the sign-in form keeps `next` (local paths only)
// and shows why the last attempt failed; sign-out ends the session and returns to /login.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { h } from '../../core/html/jsx.js';
import { HttpError } from '../../core/http/errors.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { isSafeRelativePath } from '../../core/http/respond.js';
import { firstOf, queryOf } from '../ui/components.js';
import type { LoginFlow } from './login.js';
import { authEnabledFor } from './pipeline.js';

const ERRORS: Record<string, string> = {
  '1': 'Invalid username or password.',
  rate: 'Too many sign-in attempts. Wait a while and try again.',
  busy: 'The server is busy. Try again in a moment.',
  unavailable: 'Signing in is not possible right now. Try again later.',
};

/** Where to go after signing in: a local path, never another site or the login page itself. */
export function safeNext(raw: unknown): string {
  const next = typeof raw === 'string' ? raw : '';
  if (!isSafeRelativePath(next) || next.startsWith('/login') || next.startsWith('/logout')) return '/dashboard';
  return next;
}

function errorCode(err: unknown): string {
  const status = err instanceof HttpError ? err.status : 500;
  if (status === 401 || status === 400) return '1';
  if (status === 429) return 'rate';
  if (status === 503) return 'busy';
  return 'unavailable';
}

export function registerLoginPages(app: FastifyInstance, layout: Layout, login: LoginFlow): void {
  registerPage(app, layout, {
    path: '/login',
    needs: 'public',
    load: async (req, reply) => {
      const q = queryOf(req);
      const next = safeNext(firstOf(q.next));
      // Nothing to sign in to with auth off; a signed-in visitor goes straight on.
      if (!authEnabledFor(req) || req.credential.kind === 'session') {
        await reply.code(302).header('location', next).send();
        return { pageTitle: 'Sign in', next };
      }
      return { pageTitle: 'Sign in', next, errorMessage: ERRORS[firstOf(q.error)] };
    },
    view: (ctx) => (
      <section class="login">
        <form method="post" action="/login" class="card form" data-testid="login-form">
          <input type="hidden" name="next" value={ctx.next} />
          <label class="field">
            <span>Username</span>
            <input type="text" name="username" autocomplete="username" required autofocus />
          </label>
          <label class="field">
            <span>Password</span>
            <input type="password" name="password" autocomplete="current-password" required />
          </label>
          <button type="submit">Sign in</button>
        </form>
      </section>
    ),
  });

  app.post('/login', { config: { needs: 'public' } }, async (req: FastifyRequest, reply: FastifyReply) => {
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    const next = safeNext(firstOf(body.next as string | string[] | undefined));
    if (!authEnabledFor(req)) return reply.code(302).header('location', next).send();
    const username = firstOf(body.username as string | string[] | undefined);
    const password = firstOf(body.password as string | string[] | undefined);
    try {
      if (!username || !password) throw new HttpError(401, 'invalid username or password');
      const session = await login.login(req, username, password);
      login.setCookie(reply, session.token);
      return reply.code(302).header('location', next).send();
    } catch (err) {
      return reply.code(302).header('location', `/login?error=${errorCode(err)}&next=${encodeURIComponent(next)}`).send();
    }
  });

  const logout = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!authEnabledFor(req)) return reply.code(302).header('location', '/dashboard').send();
    await login.logout(req, reply);
    return reply.code(302).header('location', '/login').send();
  };
  app.get('/logout', { config: { needs: 'account' } }, logout);
  app.post('/logout', { config: { needs: 'account' } }, logout);
}
