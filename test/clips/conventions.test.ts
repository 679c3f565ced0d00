// Status, CORS, authentication, routing and error envelopes (companion §15.2, §12).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureF, startTestClips, type FixtureF, type TestClips } from './helper.js';

let t: TestClips;
let f: FixtureF;
beforeAll(async () => {
  t = await startTestClips();
  f = await fixtureF(t);
});
afterAll(async () => t?.close());

describe('status', () => {
  it('answers without a key with exactly the five documented fields', async () => {
    const r = await t.req<Record<string, unknown>>(null, 'GET', '/status');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['bind_all', 'port', 'request_count', 'running', 'url']);
    expect(r.body).toMatchObject({ running: true, port: t.svc.port, bind_all: false, url: `http://127.0.0.1:${t.svc.port}` });
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('counts authenticated routes, rejected ones included, but not status, preflights or unknown paths', async () => {
    const before = (await t.req<{ request_count: number }>(null, 'GET', '/status')).body.request_count;
    await t.req(f.KV, 'GET', '/tags');
    await t.req('svc_bogus', 'GET', '/tags');
    await t.raw(null, 'OPTIONS', '/tags');
    await t.req(f.KV, 'GET', '/nope');
    await t.req(null, 'GET', '/status');
    const after = (await t.req<{ request_count: number }>(null, 'GET', '/status')).body.request_count;
    expect(after).toBe(before + 2);
  });
});

describe('CORS', () => {
  it('answers any OPTIONS with 204 and the CORS headers, before authentication and routing', async () => {
    for (const path of ['/clips', '/no/such/path']) {
      const r = await t.raw(null, 'OPTIONS', path, undefined, { origin: 'http://x.test', 'access-control-request-method': 'DELETE' });
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('access-control-allow-methods')).toContain('DELETE');
      expect(r.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
      expect(r.headers.get('access-control-allow-headers')).toMatch(/Content-Type/);
      expect(r.headers.get('access-control-max-age')).toBe('600');
    }
  });

  it('sends the wildcard origin on successes, errors, 404s and downloads', async () => {
    const responses = [
      await t.req(null, 'GET', '/status'),
      await t.req(null, 'GET', '/clips'),
      await t.req(f.KV, 'GET', '/nope'),
      await t.req(f.KV, 'POST', '/tags', { name: 'x' }),
      await t.raw(f.KV, 'GET', '/clips/1/data'),
      await t.req(f.KE, 'PUT', '/clips/1/archive'),
      await t.req(f.KE, 'DELETE', '/clips/1/archive'),
    ];
    for (const r of responses) expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('authentication', () => {
  it('401s a missing key, another scheme, and an unknown key, with WWW-Authenticate', async () => {
    const missing = await t.req(null, 'GET', '/clips');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: 'authentication required' });
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    const basic = await t.raw(null, 'GET', '/clips', undefined, { authorization: `Basic ${f.KA}` });
    expect(basic.body).toEqual({ error: 'authentication required' });
    const unknown = await t.req(`svc_${'0'.repeat(48)}`, 'GET', '/clips');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: 'invalid or revoked API key' });
  });

  it('accepts the Bearer scheme in any case', async () => {
    const r = await t.raw(null, 'GET', '/clips', undefined, { authorization: `bearer ${f.KA}` });
    expect(r.status).toBe(200);
  });

  it('checks the role before reading the body', async () => {
    const r = await t.raw(f.KV, 'POST', '/tags', '{', { 'content-type': 'application/json' });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: 'insufficient permissions' });
    const tags = await t.req<{ name: string }[]>(f.KA, 'GET', '/tags');
    expect(tags.body.map((x) => x.name)).not.toContain('x');
  });

  it('gives each role exactly what the role table allows', async () => {
    const cases: [string, string, string, unknown, Record<'KV' | 'KE' | 'KA', number>][] = [
      ['GET', '/clips', '', undefined, { KV: 200, KE: 200, KA: 200 }],
      ['PUT', '/clips/1/archive', '', undefined, { KV: 403, KE: 204, KA: 204 }],
      ['PUT', '/clips/1/metadata/k', '', { value: 'v' }, { KV: 403, KE: 204, KA: 204 }],
      ['POST', '/clips/bulk/download', '', { ids: [1] }, { KV: 200, KE: 200, KA: 200 }],
      ['POST', '/clips/bulk/archive', '', { ids: [1] }, { KV: 403, KE: 200, KA: 200 }],
      ['PUT', '/tags/hidden', '', { ids: [] }, { KV: 403, KE: 403, KA: 204 }],
      ['GET', '/tags/hidden', '', undefined, { KV: 200, KE: 200, KA: 200 }],
      ['PUT', '/tags/3', '', { color: '#000000' }, { KV: 403, KE: 403, KA: 204 }],
      ['GET', '/dedup', '', undefined, { KV: 200, KE: 200, KA: 200 }],
      ['POST', '/dedup/2/merge', '', undefined, { KV: 403, KE: 204, KA: 204 }],
      ['POST', '/dedup/all', '', undefined, { KV: 403, KE: 403, KA: 200 }],
      ['GET', '/keys', '', undefined, { KV: 403, KE: 403, KA: 200 }],
    ];
    for (const [method, path, , body, expected] of cases) {
      for (const role of ['KV', 'KE', 'KA'] as const) {
        const r = await t.req(f[role], method, path, body);
        expect(`${role} ${method} ${path} → ${r.status}`).toBe(`${role} ${method} ${path} → ${expected[role]}`);
      }
    }
    await t.req(f.KE, 'DELETE', '/clips/1/archive');
    await t.req(f.KE, 'DELETE', '/clips/1/metadata/k');
  });
});

describe('routing and errors', () => {
  it('answers unknown paths with a JSON 404', async () => {
    const r = await t.req<{ error: string }>(f.KA, 'GET', '/nope');
    expect(r.status).toBe(404);
    expect(r.body.error).toContain('/api/v1/nope');
    const outside = await fetch(`${t.url}/elsewhere`);
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as { error: string }).error).toBeTruthy();
  });

  it('answers a known path with the wrong method 405 with an Allow header', async () => {
    const r = await t.req<{ error: string }>(f.KA, 'PATCH', '/tags');
    expect(r.status).toBe(405);
    expect(r.body.error).toBeTruthy();
    expect(r.headers.get('allow')).toContain('GET');
    expect(r.headers.get('allow')).toContain('POST');
  });

  it('rejects invalid JSON with 400 "invalid JSON body" and parses JSON whatever the declared type', async () => {
    const bad = await t.raw(f.KA, 'POST', '/tags', '{"name": ', { 'content-type': 'application/json' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'invalid JSON body' });
    const plain = await t.raw(f.KA, 'POST', '/tags', '{"name":"typed-as-text"}', { 'content-type': 'text/plain' });
    expect(plain.status).toBe(201);
    const none = await t.raw(f.KA, 'POST', '/tags', '{"name":"no-type"}');
    expect(none.status).toBe(201);
  });

  it('answers a JSON body over 1 MiB with 413', async () => {
    const r = await t.raw(f.KA, 'POST', '/tags', JSON.stringify({ name: 'x'.repeat(1024 * 1024) }), { 'content-type': 'application/json' });
    expect(r.status).toBe(413);
    expect((r.body as { error: string }).error).toBeTruthy();
  });

  it('answers non-numeric path ids 400 naming the thing', async () => {
    expect((await t.req(f.KA, 'GET', '/clips/abc')).body).toEqual({ error: 'invalid clip id' });
    expect((await t.req(f.KA, 'GET', '/clips/1e3')).status).toBe(400);
    expect((await t.req(f.KA, 'DELETE', '/keys/abc')).body).toEqual({ error: 'invalid key id' });
    expect((await t.req(f.KA, 'GET', '/tags/-1/children')).body).toEqual({ error: 'invalid tag id' });
    expect((await t.req(f.KA, 'GET', '/clips/99999999999999999999')).status).toBe(400);
  });

  it('sends 204 without a body or content type', async () => {
    const r = await t.raw(f.KE, 'PUT', '/clips/2/archive');
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect(r.headers.get('content-type')).toBeNull();
    await t.req(f.KE, 'DELETE', '/clips/2/archive');
  });
});

