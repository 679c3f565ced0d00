// The request pipeline under -auth (companion §10.8): authentication → CSRF → authorisation,
// before the body limit and the handler. Every route — declared API routes, pages and the few
// plain routes — carries the capability it needs in its Fastify route config; `recordAccess`
// refuses to start a server with a route that declares none, so a new endpoint cannot forget
// it, and the table it collects drives the menus and the role-matrix test.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CredentialError, CsrfError, RoleError } from './errors.js';
import { wantsHtml } from '../../core/http/respond.js';
import { ANONYMOUS, CAPABILITIES, can, type Capability, type Credential, type Principal } from './principal.js';
import { sameSecret } from './secrets.js';
import type { AuthService } from './service.js';

export const SESSION_COOKIE = 'mr_session';
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_FIELD = 'csrf_token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
/** Writes that need no CSRF token although they change the session (§10.6). */
const CSRF_EXEMPT = new Set(['/logout', '/v1/auth/logout']);

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
    credential: Credential;
    /** CSRF and role checks wait for the form body (a urlencoded csrf_token field). */
    checksAfterBody?: Capability;
  }
  interface FastifyInstance {
    access: AccessTable;
  }
}

export interface AccessEntry {
  method: string;
  path: string;
  needs: Capability;
}

/** Every route with its capability: the one permission table (companion §10.9). */
export class AccessTable {
  readonly entries: AccessEntry[] = [];
  private readonly index = new Map<string, Capability>();

  add(method: string, path: string, needs: Capability): void {
    this.entries.push({ method, path, needs });
    this.index.set(`${method} ${path}`, needs);
  }

  /** The capability of an exact route path (menus ask about the pages they link to). */
  needsOf(method: string, path: string): Capability | undefined {
    return this.index.get(`${method} ${path}`);
  }
}

function isCapability(value: unknown): value is Capability {
  return typeof value === 'string' && (CAPABILITIES as readonly string[]).includes(value);
}

/** Collects every route as it is added and refuses one without a valid capability. */
export function recordAccess(app: FastifyInstance): AccessTable {
  const table = new AccessTable();
  app.decorate('access', table);
  app.addHook('onRoute', (route) => {
    const needs = route.config?.needs;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!isCapability(needs)) {
      throw new Error(`route ${methods.join(',')} ${route.url} declares no capability (config.needs): every route must say who may call it`);
    }
    for (const m of methods) table.add(m, route.url ?? route.path, needs);
  });
  return table;
}

export function pathOf(req: FastifyRequest): string {
  return req.url.split('?')[0];
}

/** The declared capability of the matched route; unknown paths (404) need a principal. */
function needsOf(req: FastifyRequest): Capability {
  const needs = req.routeOptions.config?.needs;
  return isCapability(needs) ? needs : 'read';
}

/** The client's IP for login throttling: the socket, or the first X-Forwarded-For entry when trusted. */
export function clientIp(req: FastifyRequest, trustProxyHeaders: boolean): string {
  if (trustProxyHeaders) {
    const header = req.headers['x-forwarded-for'];
    const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
    if (first) return first.slice(0, 45);
  }
  return req.socket.remoteAddress ?? req.ip;
}

export function readCookie(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

function first(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' ? v : undefined;
}

/** A browser navigating to a page (not an API or JSON client) is sent to the login page. */
function isPageNavigation(req: FastifyRequest): boolean {
  const path = pathOf(req);
  return !path.startsWith('/v1/') && path !== '/v1' && !path.endsWith('.json') && wantsHtml(req);
}

function loginRedirect(req: FastifyRequest): string {
  const path = pathOf(req);
  if (req.method !== 'GET' || path === '/') return '/login';
  return `/login?next=${encodeURIComponent(req.url)}`;
}

function isFormBody(req: FastifyRequest): boolean {
  return (req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
}

export interface PipelineOptions {
  /** -auth; off, every request runs as the root administrator. */
  enabled: boolean;
  auth: AuthService;
  /** The implicit actor with authentication off (re-read per request: it can change). */
  root: () => Principal;
}

/**
 * Resolves the principal: a Bearer header is evaluated before any cookie, and a bad one is a
 * 401 whatever cookie came with it; a missing, unknown or expired session is simply no one.
 */
async function authenticate(req: FastifyRequest, auth: AuthService): Promise<{ principal: Principal; credential: Credential } | CredentialError> {
  const header = first(req.headers.authorization);
  if (header !== undefined && /^bearer\s/i.test(header)) {
    const found = await auth.fromToken(header.replace(/^bearer\s+/i, '').trim());
    return found ?? new CredentialError('invalid or expired API token');
  }
  const cookie = readCookie(req, SESSION_COOKIE);
  if (cookie) {
    const found = await auth.fromSession(cookie);
    if (found) return found;
  }
  return { principal: ANONYMOUS, credential: { kind: 'none' } };
}

function csrfApplies(req: FastifyRequest, needs: Capability): boolean {
  // A POST declared `read` (MRQL runs, search…) changes nothing, so a forged one gains nothing.
  return req.credential.kind === 'session' && !SAFE_METHODS.has(req.method) && needs !== 'read' && needs !== 'public' && !CSRF_EXEMPT.has(pathOf(req));
}

function checkCsrf(req: FastifyRequest, presented: string | undefined): void {
  const expected = req.credential.kind === 'session' ? req.credential.csrfToken : '';
  if (!presented || !expected || !sameSecret(presented, expected)) throw new CsrfError();
}

function authorise(req: FastifyRequest, needs: Capability): void {
  if (!can(req.principal, needs)) throw new RoleError();
}

export function installRequestPipeline(app: FastifyInstance, options: PipelineOptions): void {
  app.decorateRequest('principal', null as unknown as Principal);
  app.decorateRequest<Credential | null>('credential', null);

  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const needs = needsOf(req);
    if (!options.enabled) {
      req.principal = options.root();
      req.credential = { kind: 'off' };
      return;
    }
    const found = await authenticate(req, options.auth);
    if (found instanceof CredentialError) {
      // Public routes (the login page, assets) stay reachable with a stale token.
      if (needs !== 'public') throw found;
      req.principal = ANONYMOUS;
      req.credential = { kind: 'none' };
      return;
    }
    req.principal = found.principal;
    req.credential = found.credential;
    if (needs === 'public') return;

    if (req.credential.kind === 'none') {
      if (isPageNavigation(req)) return reply.code(302).header('location', loginRedirect(req)).send();
      throw new CredentialError();
    }

    if (csrfApplies(req, needs)) {
      const presented = first(req.headers[CSRF_HEADER]) ?? first((req.query as Record<string, unknown> | undefined)?.[CSRF_FIELD]);
      if (presented === undefined && isFormBody(req)) {
        // The token may be a form field: both checks wait for the parsed body, in order.
        req.checksAfterBody = needs;
        return;
      }
      checkCsrf(req, presented);
    }
    authorise(req, needs);
  });

  app.addHook('preValidation', async (req: FastifyRequest) => {
    const needs = req.checksAfterBody;
    if (needs === undefined) return;
    req.checksAfterBody = undefined;
    const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
    checkCsrf(req, first(body[CSRF_FIELD]));
    authorise(req, needs);
  });
}

/** The token pages publish in <meta name="csrf-token"> (empty without a session). */
export function csrfTokenOf(req: FastifyRequest): string {
  return req.credential?.kind === 'session' ? req.credential.csrfToken : '';
}

export function authEnabledFor(req: FastifyRequest): boolean {
  return req.credential !== null && req.credential !== undefined && req.credential.kind !== 'off';
}
