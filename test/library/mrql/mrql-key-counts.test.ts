// `GROUP BY contentType COUNT()` over all resources is answered from the per-content-type count
// table that triggers keep (migration 013, issue 18). Its counts must equal the counts read from
// the rows after every kind of write — create, new version, delete, merge, import — and a
// group-limited principal must still get its own subtree's counts, never the table's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, asBearer, login, makeAccount, makeGroup, startAuthLibrary } from '../../helpers/accounts.js';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { jpeg, pdf, png, postMultipart, type FilePart } from '../../helpers/resources.js';
import { applyImport, exportArchive, parseArchive } from '../../helpers/transfer.js';

const COUNTED = 'type = "resource" GROUP BY contentType COUNT() ORDER BY contentType';
// The same counts read from the rows: a WHERE that keeps every row rules the table out.
const SCANNED = 'type = "resource" AND id > 0 GROUP BY contentType COUNT() ORDER BY contentType';

type Counts = Record<string, number>;

async function counts(lib: TestLibrary, query: string, headers: Record<string, string> = {}): Promise<Counts> {
  const r = await lib.json<{ rows: { contentType: string; count: number }[] }>('POST', '/v1/mrql', { query }, headers);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return Object.fromEntries(r.body.rows.map((x) => [x.contentType, x.count]));
}

/** Whether the query's statement reads the count table (explain shows the statements it runs). */
async function readsCountTable(lib: TestLibrary, query: string, headers: Record<string, string> = {}): Promise<boolean> {
  const r = await lib.json<{ statements: { sql: string }[] }>('POST', '/v1/mrql/explain', { query }, headers);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.statements.some((s) => s.sql.includes('resource_content_type_counts'));
}

async function add(lib: TestLibrary, file: FilePart, ownerId: number, headers: Record<string, string> = {}): Promise<number> {
  const r = await postMultipart(lib, '/v1/resource', 'resource', [file], { Name: file.name, OwnerId: ownerId }, headers);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (Array.isArray(r.body) ? r.body[0] : r.body).ID;
}

describe('content-type counts kept through every write', () => {
  let lib: TestLibrary;
  let group: number;

  beforeAll(async () => {
    lib = await startTestLibrary();
    const g = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'counted' });
    group = g.body.ID;
  });
  afterAll(async () => lib?.close());

  /** The table's answer equals the rows' answer and the expected counts. */
  async function expectCounts(expected: Counts): Promise<void> {
    expect(await readsCountTable(lib, COUNTED)).toBe(true);
    expect(await readsCountTable(lib, SCANNED)).toBe(false);
    expect(await counts(lib, COUNTED)).toEqual(expected);
    expect(await counts(lib, SCANNED)).toEqual(expected);
  }

  it('counts created, re-versioned, deleted, merged and imported resources', async () => {
    await expectCounts({});
    const a = await add(lib, { name: 'a.png', type: 'image/png', data: await png(16, 16, 1) }, group);
    const b = await add(lib, { name: 'b.png', type: 'image/png', data: await png(16, 16, 2) }, group);
    const c = await add(lib, { name: 'c.jpg', type: 'image/jpeg', data: await jpeg(16, 16, 3) }, group);
    const d = await add(lib, { name: 'd.pdf', type: 'application/pdf', data: pdf('d') }, group);
    await expectCounts({ 'application/pdf': 1, 'image/jpeg': 1, 'image/png': 2 });

    // A new current version of another type changes the resource's content type.
    const v = await postMultipart(lib, `/v1/resource/versions?resourceId=${a}`, 'file', [{ name: 'a.jpg', type: 'image/jpeg', data: await jpeg(16, 16, 4) }]);
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    await expectCounts({ 'application/pdf': 1, 'image/jpeg': 2, 'image/png': 1 });

    // A type whose last resource goes disappears from the answer.
    expect((await lib.json('POST', '/v1/resource/delete', { Id: d })).status).toBe(200);
    await expectCounts({ 'image/jpeg': 2, 'image/png': 1 });

    // Merging deletes the losers.
    expect((await lib.json('POST', '/v1/resources/merge', { Winner: c, Losers: [b] })).status).toBe(200);
    await expectCounts({ 'image/jpeg': 2 });

    // An export of the group, emptied, imported back: the imported resources are counted.
    const { bytes } = await exportArchive(lib, { rootGroupIds: [group] });
    expect((await lib.json('POST', '/v1/resources/delete', { ID: [a, c] })).status).toBe(200);
    await expectCounts({});
    const { id } = await parseArchive(lib, bytes);
    const result = await applyImport(lib, id);
    expect(result.created_resource_ids).toHaveLength(2);
    await expectCounts({ 'image/jpeg': 2 });
  }, 120_000);
});

describe('content-type counts of a group-limited principal', () => {
  let lib: TestLibrary;

  beforeAll(async () => {
    lib = await startAuthLibrary();
  });
  afterAll(async () => lib?.close());

  it('are its subtree counts, read from the rows', async () => {
    const admin = await login(lib, ADMIN.username, ADMIN.password);
    const root = await makeGroup(lib, admin, 'scope root');
    const child = await makeGroup(lib, admin, 'inside', root);
    const outside = await makeGroup(lib, admin, 'outside');
    const adminH = asBearer((await makeAccount(lib, admin, { role: 'admin' })).token);
    await add(lib, { name: 'in.png', type: 'image/png', data: await png(16, 16, 5) }, child, adminH);
    await add(lib, { name: 'in.pdf', type: 'application/pdf', data: pdf('in') }, root, adminH);
    await add(lib, { name: 'out.png', type: 'image/png', data: await png(16, 16, 6) }, outside, adminH);
    await add(lib, { name: 'out.jpg', type: 'image/jpeg', data: await jpeg(16, 16, 7) }, outside, adminH);
    const scoped = asBearer((await makeAccount(lib, admin, { role: 'user', scopeGroupId: root })).token);

    expect(await readsCountTable(lib, COUNTED, adminH)).toBe(true);
    expect(await counts(lib, COUNTED, adminH)).toEqual({ 'application/pdf': 1, 'image/jpeg': 1, 'image/png': 2 });
    expect(await readsCountTable(lib, COUNTED, scoped)).toBe(false);
    expect(await counts(lib, COUNTED, scoped)).toEqual({ 'application/pdf': 1, 'image/png': 1 });
  }, 60_000);
});
