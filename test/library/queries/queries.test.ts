import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, TEST_DB, type TestLibrary } from '../../helpers/library.js';

type Query = { ID: number; Name: string; Text: string; Template: string; Description: string; CreatedAt: string };
type Run = { columns: string[]; rows: unknown[][] };

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary();
  await lib.json('POST', '/v1/tag', { Name: 'q-one', Meta: '{"n":1}' });
  await lib.json('POST', '/v1/tag', { Name: 'q-two', Meta: '{"n":2}' });
});
afterAll(async () => lib?.close());

async function save(name: string, text: string, extra: Record<string, unknown> = {}): Promise<Query> {
  const r = await lib.json<Query>('POST', '/v1/query', { Name: name, Text: text, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

async function tagCount(): Promise<number> {
  return Number((await lib.json('GET', '/v1/tags')).headers.get('x-total-count'));
}

describe('saved SQL queries', () => {
  it('creates, reads, updates partially and lists with the Text filter', async () => {
    const q = await save('all tags', 'SELECT id, name FROM tags ORDER BY name', { Template: '<p x-text="rows.length"></p>', Description: 'every tag' });
    expect(q).toMatchObject({ Name: 'all tags', Text: 'SELECT id, name FROM tags ORDER BY name', Description: 'every tag' });
    expect((await lib.json<Query>('GET', `/v1/query?id=${q.ID}`)).body.Name).toBe('all tags');
    const upd = await lib.json<Query>('POST', '/v1/query', { ID: q.ID, Description: 'changed' });
    expect(upd.body).toMatchObject({ Name: 'all tags', Text: q.Text, Description: 'changed' });
    expect((await lib.json<Query[]>('GET', '/v1/queries?Text=order%20by%20name')).body.map((x) => x.Name)).toEqual(['all tags']);
    expect((await lib.json('POST', '/v1/query', { Name: 'all tags' })).status).toBe(409);
    expect((await lib.json('GET', '/v1/query?id=999999')).status).toBe(404);
  });

  it('runs by id or name, columns in SELECT order, rows index-aligned', async () => {
    const q = await save('names', "SELECT name, id, 'x' AS id FROM tags WHERE name LIKE 'q-%' ORDER BY name");
    const byId = await lib.json<Run>('POST', `/v1/query/run?id=${q.ID}`);
    expect(byId.body.columns).toEqual(['name', 'id', 'id']);
    expect(byId.body.rows.map((r) => [r[0], r[2]])).toEqual([
      ['q-one', 'x'],
      ['q-two', 'x'],
    ]);
    const byName = await lib.json<Run>('POST', '/v1/query/run', { name: 'names' });
    expect(byName.body.rows).toHaveLength(2);
    expect((await lib.json('POST', '/v1/query/run', { name: 'nope' })).status).toBe(404);
    expect((await lib.json('POST', '/v1/query/run')).status).toBe(400);
  });

  it('binds :name parameters from the request, parsing JSON values', async () => {
    const q = await save('by name', 'SELECT name FROM tags WHERE name = :tag OR id = :id');
    const r = await lib.json<Run>('POST', `/v1/query/run?id=${q.ID}&tag=q-two`);
    expect(r.body.rows).toEqual([['q-two']]);
    const form = await lib.form('/v1/query/run', [['id', q.ID], ['tag', 'q-one']], { accept: 'application/json' });
    expect(((await form.json()) as Run).rows).toEqual([['q-one']]);
  });

  it('returns JSON columns as structure', async () => {
    const q = await save('meta', "SELECT name, meta FROM tags WHERE name = 'q-two'");
    const r = await lib.json<Run>('POST', `/v1/query/run?id=${q.ID}`);
    expect(r.body.rows).toEqual([['q-two', { n: 2 }]]);
  });

  it('refuses every statement that is not read-only, changing nothing', async () => {
    const before = await tagCount();
    const writes = [
      'DELETE FROM tags',
      "UPDATE tags SET name = 'x'",
      "INSERT INTO tags (name, description, meta, created_at, updated_at) VALUES ('evil', '', '{}', 'x', 'x')",
      'DROP TABLE tags',
      'SELECT 1; DELETE FROM tags',
      'CREATE TABLE evil (id integer)',
    ];
    for (const text of writes) {
      const q = await save(`write ${writes.indexOf(text)}`, text);
      const r = await lib.json<{ error: string }>('POST', `/v1/query/run?id=${q.ID}`);
      expect(r.status, text).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
    expect(await tagCount()).toBe(before);
    expect((await lib.json('GET', '/v1/tags?Name=q-')).body).toHaveLength(2);
  });

  it('answers bad SQL with 400', async () => {
    const q = await save('broken', 'SELEC nothing');
    expect((await lib.json('POST', `/v1/query/run?id=${q.ID}`)).status).toBe(400);
  });

  it('describes the schema with a caching hint', async () => {
    const r = await lib.json<Record<string, string[]>>('GET', '/v1/query/schema');
    expect(r.headers.get('cache-control')).toBe('max-age=300');
    expect(r.body.tags.slice(0, 3)).toEqual(['id', 'created_at', 'updated_at']);
    expect(r.body.groups).toContain('owner_id');
    expect(Object.keys(r.body).some((t) => t.startsWith('kysely_') || t.startsWith('sqlite_'))).toBe(false);
  });

  it('deletes with {id}, edits inline and counts a timeline with the Text filter', async () => {
    const q = await save('temp', 'SELECT 42 AS answer');
    expect((await lib.json('POST', `/v1/query/editName?id=${q.ID}`, { Name: 'temp2' })).body).toEqual({ ok: true, id: q.ID });
    const t = await lib.json<{ buckets: { created: number }[] }>('GET', '/v1/queries/timeline?granularity=yearly&columns=1&Text=42');
    expect(t.body.buckets[0].created).toBe(1);
    expect((await lib.json('POST', `/v1/query/delete?Id=${q.ID}`)).body).toEqual({ id: q.ID });
  });

  it('renders its pages', async () => {
    const q = await save('page query', 'SELECT name FROM tags WHERE name = :tag', { Template: '<p>template here</p>' });
    for (const path of ['/queries', `/query?id=${q.ID}`, '/query/new', `/query/edit?id=${q.ID}`]) expect((await lib.fetch(path)).status, path).toBe(200);
    const page = await lib.json<{ params: string[] }>('GET', `/query.json?id=${q.ID}`);
    expect(page.body.params).toEqual(['tag']);
  });
});

describe.skipIf(TEST_DB !== 'sqlite')('saved SQL queries through DB_READONLY_DSN', () => {
  let ro: TestLibrary;
  beforeAll(async () => {
    const dir = (await import('node:fs')).mkdtempSync(join((await import('node:os')).tmpdir(), 'stacks-ro-'));
    const dbFile = join(dir, 'lib.db');
    ro = await startTestLibrary(['-db-dsn', dbFile, '-db-readonly-dsn', `file:${dbFile}?mode=ro`]);
  });
  afterAll(async () => ro?.close());

  it('runs reads and lets the database refuse writes', async () => {
    expect(ro.lib.readonlySql.enforcedByDatabase).toBe(true);
    const read = await ro.json<Query>('POST', '/v1/query', { Name: 'count', Text: 'SELECT count(*) AS n FROM tags' });
    expect((await ro.json<Run>('POST', `/v1/query/run?id=${read.body.ID}`)).body.columns).toEqual(['n']);
    const write = await ro.json<Query>('POST', '/v1/query', { Name: 'write', Text: 'DELETE FROM tags' });
    expect((await ro.json('POST', `/v1/query/run?id=${write.body.ID}`)).status).toBe(400);
  });
});
