// The audit log: entries for every write and the filters of /v1/logs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';

type Entry = { id: number; createdAt: string; level: string; action: string; entityType: string; entityId: number; entityName: string; message: string; requestPath: string };
type LogList = { logs: Entry[]; totalCount: number; page: number; perPage: number };

let lib: TestLibrary;
let tagId: number;
beforeAll(async () => {
  lib = await startTestLibrary();
  const t = await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'logged' });
  tagId = t.body.ID;
  await lib.json('POST', '/v1/tag', { ID: tagId, Description: 'changed' });
  await lib.json('POST', `/v1/tag/delete?Id=${tagId}`);
  await lib.json('POST', '/v1/tag', { Name: 'survivor' });
});
afterAll(async () => lib?.close());

describe('audit log', () => {
  it('records create, update and delete with path and entity', async () => {
    const r = await lib.json<LogList>('GET', `/v1/logs/entity?entityType=tag&entityId=${tagId}`);
    expect(r.status).toBe(200);
    expect(r.body.logs.map((l) => l.action)).toEqual(['delete', 'update', 'create']);
    for (const l of r.body.logs) {
      expect(l).toMatchObject({ level: 'info', entityType: 'tag', entityId: tagId, entityName: 'logged' });
      expect(l.requestPath).toMatch(/^\/v1\/tag/);
    }
  });

  it('lists with the envelope and paging headers', async () => {
    const r = await lib.json<LogList>('GET', '/v1/logs');
    expect(r.body).toMatchObject({ page: 1, perPage: 50 });
    expect(r.body.totalCount).toBe(r.body.logs.length);
    expect(r.headers.get('x-page')).toBe('1');
  });

  it('filters by level, action, entity, message, path and dates', async () => {
    const count = async (q: string) => (await lib.json<LogList>('GET', `/v1/logs?${q}`)).body.totalCount;
    expect(await count('Action=delete')).toBe(1);
    expect(await count('Action=create&EntityType=tag')).toBe(2);
    expect(await count(`EntityID=${tagId}`)).toBe(3);
    expect(await count('Level=error')).toBe(0);
    expect(await count('Level=info')).toBe(4);
    expect(await count('Message=SURVIVOR')).toBe(1);
    expect(await count('RequestPath=/v1/tag/delete')).toBe(1);
    expect(await count('CreatedAfter=2999-01-01')).toBe(0);
    expect(await count('CreatedBefore=2999-01-01')).toBe(4);
    const sorted = await lib.json<LogList>('GET', '/v1/logs?SortBy=id%20asc');
    expect(sorted.body.logs.map((l) => l.id)).toEqual([...sorted.body.logs.map((l) => l.id)].sort((a, b) => a - b));
  });

  it('rejects bad filters with 400', async () => {
    for (const q of ['Level=loud', 'Action=explode', 'EntityID=x', 'CreatedAfter=tomorrow', 'SortBy=1']) {
      expect((await lib.json('GET', `/v1/logs?${q}`)).status, q).toBe(400);
    }
    expect((await lib.json('GET', '/v1/logs/entity?entityType=planet&entityId=1')).status).toBe(400);
    expect((await lib.json('GET', '/v1/logs/entity?entityType=tag')).status).toBe(400);
  });

  it('reads one entry by id', async () => {
    const all = await lib.json<LogList>('GET', '/v1/logs');
    const one = await lib.json<Entry>('GET', `/v1/log?id=${all.body.logs[0].id}`);
    expect(one.body).toEqual(all.body.logs[0]);
    expect((await lib.json('GET', '/v1/log?id=999999')).status).toBe(404);
    expect((await lib.json('GET', '/v1/log')).status).toBe(400);
  });

  it('renders the log pages', async () => {
    const page = await lib.fetch('/logs?Action=delete', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Deleted tag');
    expect(html).not.toContain('Created tag &#34;survivor&#34;');
    const json = await lib.json<{ logs: Entry[] }>('GET', '/logs.json');
    expect(json.body.logs.length).toBe(4);
    const one = await lib.fetch(`/log?id=${json.body.logs[0].id}`);
    expect(one.status).toBe(200);
    expect(await one.text()).toContain('survivor');
    expect((await lib.fetch('/log?id=999999')).status).toBe(404);
  });
});
