// The permission matrix of companion §10.9 against the route table the server enforces.
//
// 1. Every route's declared capability equals what §10.9's path table gives for it (classified
//    here independently, from the companion's wording), and the POSTs declared `read` — the
//    ones exempt from CSRF — are exactly §10.6's read-only list.
// 2. The role × endpoint matrix: every route of the table, tried as anonymous, guest, user,
//    scoped user, editor and admin (API tokens), plus a cookie session without its CSRF token.
// 3. The OpenAPI description shows each operation's capability and roles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestLibrary } from '../../helpers/library.js';
import { ADMIN, asBearer, login, makeAccount, makeGroup, mintToken, startAuthLibrary, type Session } from '../../helpers/accounts.js';
import type { AccessEntry } from '../../../src/library/auth/pipeline.js';
import { can, type Capability, type Principal, type Role } from '../../../src/library/auth/principal.js';

// §10.6: the POST endpoints that only read.
const READ_ONLY_POSTS = new Set([
  '/v1/mrql',
  '/v1/mrql/validate',
  '/v1/mrql/complete',
  '/v1/mrql/explain',
  '/v1/mrql/export',
  '/v1/query/run',
  '/v1/mrql/saved/run',
  '/v1/search',
  '/v1/groups/export/estimate',
  '/v1/shortcodes/lint',
  '/v1/shortcodes/deferred',
]);

// '/admin/storage' and '/v1/admin/reconcile' are our own admin extras (issue 12's reconciliation
// report), admin-only like their §10.9 neighbours.
const SYSTEM_PAGES = new Set(['/admin/overview', '/admin/settings', '/admin/users', '/admin/users/edit', '/plugins/manage', '/logs', '/log', '/admin/storage']);

/** §10.9 and §10.8 item 1, read as a path classifier (".json"/".body" stripped first). */
function expectedNeeds(method: string, rawPath: string): Capability {
  const path = rawPath.replace(/\.(json|body)$/, '');
  const safe = ['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(method) || (method === 'POST' && READ_ONLY_POSTS.has(path));
  if (path === '/login' || (path === '/v1/auth/login' && method === 'POST') || path === '/favicon.ico' || path.startsWith('/public/')) return 'public';
  if (path === '/logout' || path === '/account' || path.startsWith('/v1/auth/') || path.startsWith('/v1/account/')) return 'account';
  if (
    SYSTEM_PAGES.has(path) ||
    path === '/v1/plugins/manage' ||
    /^\/v1\/plugin\/(enable|disable|scopedAccess|settings|purge-data|schedules|schedule\/run|scheduled-downloads)/.test(path) ||
    /^\/v1\/admin\/(server-stats|data-stats|settings|similarity\/|reconcile$)/.test(path) ||
    /^\/v1\/users?(\/|$)/.test(path) ||
    /^\/v1\/logs?(\/|$)/.test(path)
  ) {
    return 'system';
  }
  if (path === '/admin/shares') return 'editor';
  if (safe) return path === '/admin/export' || path === '/admin/import' ? 'write' : 'read';
  if (path.startsWith('/v1/templatePartial')) return 'partials';
  if (
    /^\/v1\/(relation|category|resourceCategory|noteType|note\/noteType|series|query|mrql\/saved)/.test(path) ||
    path === '/v1/resource/removeSeries' ||
    path === '/v1/admin/shares/bulk-revoke'
  ) {
    return 'editor';
  }
  return 'write';
}

/** A concrete URL for a route pattern (path parameters and wildcards filled in). */
function concrete(path: string): string {
  return path.replace(/:[A-Za-z]+/g, (p) => (p === ':key' ? 'some-key' : '999999')).replace(/\*$/, 'x');
}

type Column = 'anonymous' | 'guest' | 'user' | 'scoped user' | 'editor' | 'admin';

describe('permission table (companion §10.9)', () => {
  let lib: TestLibrary;
  let admin: Session;
  let entries: AccessEntry[];
  const tokens = new Map<Column, string>();
  const principals = new Map<Column, Principal>();

  beforeAll(async () => {
    lib = await startAuthLibrary();
    admin = await login(lib, ADMIN.username, ADMIN.password);
    const scope = await makeGroup(lib, admin, 'matrix-scope');
    const make = async (column: Column, role: Role, scoped: boolean) => {
      const acc = await makeAccount(lib, admin, { role, ...(scoped ? { scopeGroupId: scope } : {}) });
      tokens.set(column, acc.token);
      principals.set(column, { userId: acc.id, username: acc.username, role, scopeGroupId: scoped ? scope : null, superUser: false });
    };
    await make('guest', 'guest', true);
    await make('user', 'user', false);
    await make('scoped user', 'user', true);
    await make('editor', 'editor', false);
    tokens.set('admin', await mintToken(lib, admin, 'matrix'));
    principals.set('admin', { userId: admin.userId, username: 'admin', role: 'admin', scopeGroupId: null, superUser: false });
    entries = lib.app.access.entries.filter((e) => e.method !== 'HEAD');
  });
  afterAll(async () => {
    await lib?.close();
  });

  it('declares on every route the capability §10.9 gives it', () => {
    expect(entries.length).toBeGreaterThan(300);
    const wrong = entries.filter((e) => e.needs !== expectedNeeds(e.method, e.path)).map((e) => `${e.method} ${e.path}: declares ${e.needs}, §10.9 says ${expectedNeeds(e.method, e.path)}`);
    expect(wrong).toEqual([]);
    // Every page answers HTML, .json and .body under the same capability.
    const pages = entries.filter((e) => e.method === 'GET' && e.path.endsWith('.body'));
    for (const body of pages) {
      const base = body.path.slice(0, -5);
      expect(entries.filter((e) => e.method === 'GET' && [base, `${base}.json`].includes(e.path)).map((e) => e.needs)).toEqual([body.needs, body.needs]);
    }
  });

  it('exempts from CSRF exactly the read-only POST endpoints of §10.6 (the writes declared `read`)', () => {
    const readWrites = entries.filter((e) => !['GET', 'HEAD', 'OPTIONS'].includes(e.method) && e.needs === 'read').map((e) => e.path);
    expect(readWrites.length).toBeGreaterThan(5);
    for (const path of readWrites) expect(READ_ONLY_POSTS.has(path), path).toBe(true);
  });

  it('answers every route as §10.9 says for anonymous, guest, user, scoped user, editor and admin', { timeout: 180_000 }, async () => {
    const columns: Column[] = ['anonymous', 'guest', 'user', 'scoped user', 'editor', 'admin'];
    const tally: Record<Column, { allowed: number; refused: number }> = Object.fromEntries(columns.map((c) => [c, { allowed: 0, refused: 0 }])) as never;
    const failures: string[] = [];

    const call = async (method: string, url: string, headers: Record<string, string>) => {
      const res = await lib.fetch(url, { method, headers: { accept: 'application/json', ...headers } });
      // Event streams stay open: the status is all that counts.
      if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
        await res.body?.cancel();
        return { status: res.status, error: '' };
      }
      const text = await res.text();
      let error = '';
      try {
        error = (JSON.parse(text) as { error?: string }).error ?? '';
      } catch {
        /* not JSON */
      }
      return { status: res.status, error };
    };

    // Admin last: its calls (similarity recompute, clear completed…) change what others see least.
    for (const column of columns) {
      for (const e of entries) {
        const url = concrete(e.path);
        const { status, error } = await call(e.method, url, column === 'anonymous' ? {} : asBearer(tokens.get(column)!));
        const label = `${column}: ${e.method} ${e.path} (${e.needs}) → ${status} ${error}`;
        if (column === 'anonymous') {
          const allowed = e.needs === 'public';
          tally[column][allowed ? 'allowed' : 'refused']++;
          if (allowed ? status === 401 : !(status === 401 && error === 'authentication required')) failures.push(label);
          continue;
        }
        const allowed = can(principals.get(column)!, e.needs);
        tally[column][allowed ? 'allowed' : 'refused']++;
        const refusedByRole = status === 403 && error === 'insufficient permissions';
        // 503 is a feature that is not configured here (share server, MRQL generation), not a failure.
        if (status === 401 || allowed === refusedByRole || (status >= 500 && status !== 503)) failures.push(label);
      }
    }
    console.info(`role matrix over ${entries.length} routes: ${JSON.stringify(tally)}`);
    expect(failures).toEqual([]);
    expect(tally.guest.refused).toBeGreaterThan(100);
    expect(tally.admin.refused).toBe(0);
  });

  it('refuses every cookie-authenticated write without its CSRF token, and nothing else', { timeout: 120_000 }, async () => {
    const session = await login(lib, ADMIN.username, ADMIN.password);
    const failures: string[] = [];
    let refused = 0;
    for (const e of entries) {
      // Signing out would end the session this loop uses; pipeline.test.ts covers it.
      if (e.path === '/logout' || e.path === '/v1/auth/logout') continue;
      const res = await lib.fetch(concrete(e.path), { method: e.method, headers: { accept: 'application/json', cookie: session.cookie } });
      const type = res.headers.get('content-type') ?? '';
      const body = type.includes('event-stream') ? (await res.body?.cancel(), '') : await res.text();
      const csrfRefusal = res.status === 403 && body.includes('invalid or missing CSRF token');
      const needsToken = !['GET', 'HEAD'].includes(e.method) && e.needs !== 'read' && e.needs !== 'public';
      if (needsToken) refused++;
      if (needsToken !== csrfRefusal || res.status === 401) failures.push(`${e.method} ${e.path} (${e.needs}) → ${res.status}`);
    }
    console.info(`CSRF matrix: ${refused} writes refused without the token, ${entries.length - refused - 2} requests passed`);
    expect(failures).toEqual([]);
    expect((await lib.json('GET', '/v1/auth/me', undefined, { cookie: session.cookie })).status).toBe(200);
  });

  it('shows the capability and the roles of every operation in the OpenAPI description', async () => {
    const doc = await lib.json<{ paths: Record<string, Record<string, { 'x-needs': string; 'x-roles': string[]; security: unknown[]; responses: Record<string, unknown> }>>; components: { securitySchemes: Record<string, unknown> } }>(
      'GET',
      '/v1/openapi.json',
      undefined,
      asBearer(tokens.get('guest')!),
    );
    expect(Object.keys(doc.body.components.securitySchemes).sort()).toEqual(['bearer', 'session']);
    let operations = 0;
    for (const [path, ops] of Object.entries(doc.body.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        operations++;
        const declared = entries.find((e) => e.method === method.toUpperCase() && e.path === path);
        expect(declared, `${method} ${path}`).toBeDefined();
        expect(op['x-needs']).toBe(declared!.needs);
        if (declared!.needs === 'public') expect(op.security).toEqual([]);
        else {
          expect(op['x-roles'].length, path).toBeGreaterThan(0);
          expect(op.responses['403'], path).toBeDefined();
        }
      }
    }
    expect(operations).toBeGreaterThan(180);
    expect(doc.body.paths['/v1/relation'].post['x-roles']).toEqual(['admin', 'editor']);
    expect(doc.body.paths['/v1/tags'].get['x-roles']).toEqual(['admin', 'editor', 'user', 'guest']);
  });
});
