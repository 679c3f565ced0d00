// Saved searches (contract: Saved searches) and account settings (companion §10.11): per account,
// every role including guests; CSRF for session writes; root-owned with authentication off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { ADMIN, asBearer, asSession, login, makeAccount, makeGroup, startAuthLibrary, type Account, type Session } from '../../helpers/accounts.js';

interface Saved {
  id: number;
  name: string;
  family: string;
  url: string;
  layout: string;
  createdAt: string;
  updatedAt: string;
}

describe('saved searches', () => {
  let lib: TestLibrary;
  let admin: Session;
  let guest: Account;
  let other: Account;

  beforeAll(async () => {
    lib = await startAuthLibrary();
    admin = await login(lib, ADMIN.username, ADMIN.password);
    guest = await makeAccount(lib, admin, { role: 'guest', scopeGroupId: await makeGroup(lib, admin, 'saved-scope') });
    other = await makeAccount(lib, admin, { role: 'user' });
  });
  afterAll(async () => {
    await lib?.close();
  });

  const save = (who: Record<string, string>, body: unknown) => lib.json<Saved & { error: string }>('POST', '/v1/account/saved-searches', body, who);

  it('saves a search for a guest (201) and normalises its URL', async () => {
    const res = await save(asBearer(guest.token), {
      name: '  Holiday photos  ',
      url: '/resources/details?Tags=3&Tags=5&SortBy=created_at%20desc&SortBy=name&MetaQuery=colour%3Ablue&page=4&error=oops&csrf_token=abc&Name=',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['createdAt', 'family', 'id', 'layout', 'name', 'updatedAt', 'url']);
    expect(res.body).toMatchObject({ name: 'Holiday photos', family: 'resources', layout: 'details', url: '/resources/details?Tags=3&Tags=5&SortBy=created_at+desc&SortBy=name&MetaQuery=colour%3Ablue' });
    const mrql = await save(asBearer(guest.token), { name: 'mrql', url: '/notes?mrql=name%20~%20%22trip%22%20AND%20tags%20%3D%20x' });
    expect(new URL(mrql.body.url, 'http://x').searchParams.get('mrql')).toBe('name ~ "trip" AND tags = x');
    expect(mrql.body.layout).toBe('');
    const downloads = await save(asBearer(guest.token), { name: 'failed', url: '/downloads?Status=failed&Error=timeout&error=transient' });
    expect(downloads.body.url).toBe('/downloads?Status=failed&Error=timeout');
    const timeline = await save(asBearer(guest.token), { name: 'tl', url: '/groups/timeline?timelineMode=updated&timelineGranularity=month&timelineAnchor=2024-05-01&Name=a' });
    expect(timeline.body).toMatchObject({ family: 'groups', layout: 'timeline', url: '/groups/timeline?timelineMode=updated&timelineGranularity=month&timelineAnchor=2024-05-01&Name=a' });
    const list = await save(asBearer(guest.token), { name: 'plain', url: '/tags?timelineMode=updated&Name=x' });
    expect(list.body.url).toBe('/tags?Name=x');
  });

  it('rejects URLs that are not a list page of a known family, and bad names', async () => {
    const bad: [unknown, string][] = [
      [{ name: 'x', url: 'https://example.com/resources' }, 'relative'],
      [{ name: 'x', url: '//example.com/resources' }, 'relative'],
      [{ name: 'x', url: '/resources#top' }, 'fragment'],
      [{ name: 'x', url: '/resource?id=3' }, 'list page'],
      [{ name: 'x', url: '/group/edit?id=3' }, 'list page'],
      [{ name: 'x', url: '/v1/resources?Tags=3' }, 'API'],
      [{ name: 'x', url: '/resources.json?Tags=3' }, '.json'],
      [{ name: 'x', url: '/notes.body' }, '.json or .body'],
      [{ name: 'x', url: '/resources/gallery' }, 'list page'],
      [{ name: 'x', url: `/resources?Name=${'a'.repeat(64 * 1024)}` }, '64 KiB'],
      [{ name: 'x', url: '/groups/timeline?timelineGranularity=decade' }, 'timelineGranularity'],
      [{ name: '   ', url: '/tags' }, 'name is required'],
      [{ url: '/tags' }, 'name is required'],
      [{ name: 'é'.repeat(101), url: '/tags' }, '200 bytes'],
      [{ name: 'x' }, 'url is required'],
    ];
    for (const [body, message] of bad) {
      const res = await save(asSession(admin), body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toContain(message);
    }
    expect((await save(asSession(admin), { name: 'é'.repeat(100), url: '/tags' })).status).toBe(201);
  });

  it('lists only your own searches, alphabetically, optionally by family', async () => {
    const who = asBearer(other.token);
    for (const [name, url] of [
      ['beta', '/notes'],
      ['Alpha', '/resources'],
      ['alpha', '/resources/simple?Name=a'],
      ['alpha', '/groups'],
    ])
      expect((await save(who, { name, url })).status).toBe(201);
    const all = await lib.json<Saved[]>('GET', '/v1/account/saved-searches', undefined, who);
    expect(all.body.map((s) => s.name)).toEqual(['Alpha', 'alpha', 'alpha', 'beta']);
    const resources = await lib.json<Saved[]>('GET', '/v1/account/saved-searches?family=resources', undefined, who);
    expect(resources.body.map((s) => s.url)).toEqual(['/resources', '/resources/simple?Name=a']);
    expect((await lib.json('GET', '/v1/account/saved-searches?family=widgets', undefined, who)).status).toBe(400);
    const guestList = await lib.json<Saved[]>('GET', '/v1/account/saved-searches', undefined, asBearer(guest.token));
    expect(guestList.body.some((s) => s.name === 'beta')).toBe(false);
  });

  it('renames and re-points within the family; another account sees 404', async () => {
    const who = asBearer(other.token);
    const created = await save(who, { name: 'to edit', url: '/notes?Name=a' });
    const id = created.body.id;
    const renamed = await lib.json<Saved>('PATCH', `/v1/account/saved-searches/${id}`, { name: 'edited' }, who);
    expect(renamed.body).toMatchObject({ name: 'edited', url: '/notes?Name=a', family: 'notes' });
    const repointed = await lib.json<Saved>('PATCH', `/v1/account/saved-searches/${id}`, { url: '/notes/timeline?Name=b&page=2' }, who);
    expect(repointed.body).toMatchObject({ name: 'edited', url: '/notes/timeline?Name=b', layout: 'timeline' });
    const moved = await lib.json<{ error: string }>('PATCH', `/v1/account/saved-searches/${id}`, { url: '/groups?Name=b' }, who);
    expect(moved.status).toBe(400);
    expect(moved.body.error).toContain('family');
    expect((await lib.json('PATCH', `/v1/account/saved-searches/${id}`, {}, who)).status).toBe(400);
    for (const [method, body] of [
      ['PATCH', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await lib.json<{ error: string }>(method, `/v1/account/saved-searches/${id}`, body, asBearer(guest.token));
      expect([res.status, res.body.error]).toEqual([404, 'saved search not found']);
    }
    const del = await lib.json('DELETE', `/v1/account/saved-searches/${id}`, undefined, who);
    expect(del.status).toBe(204);
    expect((await lib.json('DELETE', `/v1/account/saved-searches/${id}`, undefined, who)).status).toBe(404);
    expect((await lib.json('PATCH', '/v1/account/saved-searches/999999', { name: 'x' }, who)).status).toBe(404);
  });

  it('needs the CSRF token for session writes', async () => {
    const s = await login(lib, guest.username, guest.password);
    expect((await save(asSession(s, false), { name: 'x', url: '/tags' })).status).toBe(403);
    const ok = await save(asSession(s), { name: 'x', url: '/tags' });
    expect(ok.status).toBe(201);
    expect((await lib.json('DELETE', `/v1/account/saved-searches/${ok.body.id}`, undefined, asSession(s, false))).status).toBe(403);
    expect((await lib.json('GET', '/v1/account/saved-searches', undefined, asSession(s, false))).status).toBe(200);
  });
});

describe('account settings', () => {
  let lib: TestLibrary;
  let admin: Session;
  let guest: Account;

  beforeAll(async () => {
    lib = await startAuthLibrary();
    admin = await login(lib, ADMIN.username, ADMIN.password);
    guest = await makeAccount(lib, admin, { role: 'guest', scopeGroupId: await makeGroup(lib, admin, 'settings-scope') });
  });
  afterAll(async () => {
    await lib?.close();
  });

  it('stores any JSON value per key and per account', async () => {
    const who = asBearer(guest.token);
    expect((await lib.json('GET', '/v1/account/settings', undefined, who)).body).toEqual({});
    for (const [key, value] of [
      ['showDescriptions', true],
      ['showHoverPreviews', false],
      ['layout prefs/ü', { columns: [1, 2], nested: { a: null } }],
      ['empty', ''],
    ] as const) {
      const res = await lib.json<{ ok: boolean }>('PUT', `/v1/account/settings/${encodeURIComponent(key)}`, { value }, who);
      expect([res.status, res.body], key).toEqual([200, { ok: true }]);
    }
    await lib.json('PUT', '/v1/account/settings/showDescriptions', { value: 'replaced' }, who);
    const all = await lib.json('GET', '/v1/account/settings', undefined, who);
    expect(all.body).toEqual({ showDescriptions: 'replaced', showHoverPreviews: false, 'layout prefs/ü': { columns: [1, 2], nested: { a: null } }, empty: '' });
    expect((await lib.json('GET', '/v1/account/settings', undefined, asSession(admin))).body).toEqual({});
    expect((await lib.json<{ ok: boolean }>('DELETE', '/v1/account/settings/empty', undefined, who)).body).toEqual({ ok: true });
    expect(Object.keys((await lib.json<object>('GET', '/v1/account/settings', undefined, who)).body)).not.toContain('empty');
  });

  it('refuses empty, malformed and oversized values and over-long keys', async () => {
    const who = asBearer(guest.token);
    expect((await lib.json('PUT', '/v1/account/settings/a', {}, who)).status).toBe(400);
    expect((await lib.json('PUT', '/v1/account/settings/a', undefined, who)).status).toBe(400);
    const broken = await lib.fetch('/v1/account/settings/a', { method: 'PUT', body: '{"value": tru', headers: { ...who, 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    const form = await lib.fetch('/v1/account/settings/a', { method: 'PUT', body: 'value=not%20json', headers: { ...who, 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(400);
    const formOk = await lib.fetch('/v1/account/settings/a', { method: 'PUT', body: 'value=%5B1%2C2%5D', headers: { ...who, 'content-type': 'application/x-www-form-urlencoded' } });
    expect(formOk.status).toBe(200);
    expect(((await lib.json<Record<string, unknown>>('GET', '/v1/account/settings', undefined, who)).body).a).toEqual([1, 2]);
    expect((await lib.json('PUT', `/v1/account/settings/${'k'.repeat(129)}`, { value: 1 }, who)).status).toBe(400);
    expect((await lib.json('PUT', `/v1/account/settings/${'k'.repeat(128)}`, { value: 1 }, who)).status).toBe(200);
    const big = await lib.json<{ error: string }>('PUT', '/v1/account/settings/big', { value: 'x'.repeat(256 * 1024) }, who);
    expect(big.status).toBe(400);
    const huge = await lib.json('PUT', '/v1/account/settings/big', { value: 'x'.repeat(300 * 1024) }, who);
    expect(huge.status).toBe(413);
    expect((await lib.json('PUT', '/v1/account/settings/fits', { value: 'x'.repeat(256 * 1024 - 2) }, who)).status).toBe(200);
  });

  it('holds at most 200 keys per account (409 for the next new key)', async () => {
    const acc = await makeAccount(lib, admin, { role: 'user' });
    const who = asBearer(acc.token);
    await Promise.all(Array.from({ length: 200 }, (_, i) => lib.json('PUT', `/v1/account/settings/k${i}`, { value: i }, who)));
    const over = await lib.json<{ error: string }>('PUT', '/v1/account/settings/one-more', { value: 1 }, who);
    expect(over.status).toBe(409);
    expect((await lib.json('PUT', '/v1/account/settings/k7', { value: 'changed' }, who)).status).toBe(200);
    expect(Object.keys((await lib.json<object>('GET', '/v1/account/settings', undefined, who)).body)).toHaveLength(200);
  });
});

describe('saved searches and settings with authentication off', () => {
  let lib: TestLibrary;
  beforeAll(async () => {
    lib = await startTestLibrary();
  });
  afterAll(async () => {
    await lib?.close();
  });

  it('belong to the root account', async () => {
    const res = await lib.json<Saved>('POST', '/v1/account/saved-searches', { name: 'mine', url: '/tags?Name=x' });
    expect(res.status).toBe(201);
    expect((await lib.json<Saved[]>('GET', '/v1/account/saved-searches')).body.map((s) => s.name)).toEqual(['mine']);
    expect((await lib.json('PUT', '/v1/account/settings/showDescriptions', { value: true })).status).toBe(200);
    expect((await lib.json('GET', '/v1/account/settings')).body).toEqual({ showDescriptions: true });
    const html = await lib.fetch('/account', { headers: { accept: 'text/html' } });
    expect(html.status).toBe(200);
    expect(await html.text()).toContain('Accounts are off');
  });
});
