// General conventions shared by every route: envelopes, suffixes, headers, escaping, OpenAPI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary();
});
afterAll(async () => lib?.close());

describe('general conventions', () => {
  it('answers unknown API paths with a JSON 404 naming the endpoint', async () => {
    const r = await lib.json<{ error: string }>('GET', '/v1/no/such/thing');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'no such endpoint: GET /v1/no/such/thing' });
    const post = await lib.json<{ error: string }>('POST', '/v1/nothing', {});
    expect(post.body.error).toBe('no such endpoint: POST /v1/nothing');
  });

  it('answers unknown pages with an HTML 404 linking to the dashboard', async () => {
    const r = await lib.fetch('/no-such-page', { headers: { accept: 'text/html' } });
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(await r.text()).toContain('href="/dashboard"');
  });

  it('rejects malformed JSON with 400 and an error message', async () => {
    const r = await lib.fetch('/v1/tag', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"Name": ' });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toMatch(/invalid JSON/);
  });

  it('sends the security headers on every response', async () => {
    for (const path of ['/v1/tags', '/tags', '/v1/missing']) {
      const r = await lib.fetch(path);
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
      expect(r.headers.get('strict-transport-security')).toBe('max-age=15552000');
    }
  });

  it('redirects / to /dashboard', async () => {
    const r = await lib.fetch('/');
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe('/dashboard');
  });

  it('serves pages as HTML, .json, Accept: application/json and .body', async () => {
    await lib.json('POST', '/v1/tag', { Name: 'page-tag' });
    const html = await lib.fetch('/tags', { headers: { accept: 'text/html' } });
    const text = await html.text();
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(text).toMatch(/^<!doctype html>/);
    expect(text).toContain('page-tag');

    const json = await lib.json<{ pageTitle: string; tags: { Name: string }[] }>('GET', '/tags.json');
    expect(json.headers.get('content-type')).toContain('application/json');
    expect(json.body.pageTitle).toBe('Tags');
    expect(json.body.tags.map((t) => t.Name)).toContain('page-tag');
    expect(Object.keys(json.body)).not.toContain('_layout');

    const accept = await lib.json<{ pageTitle: string }>('GET', '/tags');
    expect(accept.body.pageTitle).toBe('Tags');

    const body = await lib.fetch('/tags.body');
    const fragment = await body.text();
    expect(fragment).toContain('page-tag');
    expect(fragment).not.toContain('<html');
    expect(fragment).not.toContain('<nav aria-label="Main"');
  });

  it('does not offer the suffixes on /v1 routes', async () => {
    expect((await lib.fetch('/v1/tags.json')).status).toBe(404);
    expect((await lib.fetch('/v1/tags.body')).status).toBe(404);
  });

  it('reports a failed page load with its status as HTML or JSON', async () => {
    const html = await lib.fetch('/tag?id=999999', { headers: { accept: 'text/html' } });
    expect(html.status).toBe(404);
    expect(await html.text()).toContain('tag 999999 not found');
    const json = await lib.json<{ errorMessage: string }>('GET', '/tag.json?id=999999');
    expect(json.status).toBe(404);
    expect(json.body.errorMessage).toBe('tag 999999 not found');
  });

  it('escapes user text in every page', async () => {
    const evil = '<script>alert("x")</script>';
    const created = await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: evil, Description: '<img src=x onerror=alert(1)>' });
    for (const path of ['/tags', `/tag?id=${created.body.ID}`, `/tag/edit?id=${created.body.ID}`, '/dashboard']) {
      const text = await (await lib.fetch(path)).text();
      expect(text, path).not.toContain('<script>alert');
      expect(text, path).not.toContain('<img src=x');
      expect(text, path).toContain('&#60;script&#62;');
    }
  });

  it('serves public assets with CORS and never outside the public folder', async () => {
    const css = await lib.fetch('/public/index.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    expect(css.headers.get('access-control-allow-origin')).toBe('*');
    const alpine = await lib.fetch('/public/vendor/alpine.min.js');
    expect(alpine.status).toBe(200);
    for (const path of ['/public/../package.json', '/public/%2e%2e/package.json', '/public/%2e%2e%2fpackage.json']) {
      expect((await lib.fetch(path)).status, path).toBe(404);
    }
    const malformed = await lib.fetch('/public/%E0%A4%A');
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    expect(malformed.status).toBeLessThan(500);
  });

  it('describes every declared route in /v1/openapi.json', async () => {
    const r = await lib.json<{ openapi: string; paths: Record<string, Record<string, { 'x-needs': string; parameters?: { name: string }[] }>> }>('GET', '/v1/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toMatch(/^3\./);
    expect(r.body.paths['/v1/tags'].get['x-needs']).toBe('read');
    expect(r.body.paths['/v1/tag'].post['x-needs']).toBe('write');
    expect(r.body.paths['/v1/tags'].get.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(['page', 'Name', 'SortBy']));
    expect(r.body.paths['/v1/logs'].get['x-needs']).toBe('system');
  });
});
