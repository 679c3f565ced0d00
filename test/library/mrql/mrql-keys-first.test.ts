// An unscoped filtered page sorted by its keys on SQLite reads its ids first (sorted from the
// filter's index, migration 015) and then only the page's rows (issue 18, scenario
// scalar-selective). Every page must hold exactly the rows, in the order, of the same query
// answered from all the rows, after creates, new versions and deletes, on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, TEST_DB, type TestLibrary } from '../../helpers/library.js';
import { pdf, postMultipart } from '../../helpers/resources.js';

interface Row {
  ID: number;
  Name: string;
  FileSize: number;
}

let lib: TestLibrary;
let group: number;

beforeAll(async () => {
  lib = await startTestLibrary();
  group = (await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'sized' })).body.ID;
});
afterAll(async () => lib?.close());

async function run(query: string, opts: { limit?: number; page?: number } = {}): Promise<Row[]> {
  const r = await lib.json<{ resources: Row[] }>('POST', '/v1/mrql', { query, ...opts });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.resources;
}

async function statements(query: string): Promise<string[]> {
  const r = await lib.json<{ statements: { sql: string }[] }>('POST', '/v1/mrql/explain', { query });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.statements.map((s) => s.sql);
}

async function add(name: string, bytes: number): Promise<number> {
  const r = await postMultipart(lib, '/v1/resource', 'resource', [{ name, type: 'application/pdf', data: pdf('x'.repeat(bytes)) }], { Name: name, OwnerId: group });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (Array.isArray(r.body) ? r.body[0] : r.body).ID;
}

// Orders that end in id, so both answers have one right order.
const ORDERS = ['created DESC, id DESC', 'name, id', 'fileSize DESC, id'];

/** Each page of `filter ORDER BY order` equals that page of all the rows, filtered here. */
async function expectPages(filter: string, keep: (r: Row) => boolean): Promise<void> {
  for (const order of ORDERS) {
    const all = (await run(`type = "resource" ORDER BY ${order} LIMIT 1000`)).filter(keep);
    const query = `type = "resource" AND ${filter} ORDER BY ${order}`;
    if (TEST_DB === 'sqlite') expect((await statements(query)).some((s) => s.includes('e.id IN (SELECT e.id FROM resources e'))).toBe(true);
    for (let page = 1; page <= 4; page++) {
      const got = await run(query, { limit: 3, page });
      expect(got.map((r) => r.ID), `${query} page ${page}`).toEqual(all.slice((page - 1) * 3, page * 3).map((r) => r.ID));
    }
  }
}

describe('filtered pages sorted from their ids first', () => {
  it('return the rows the unfiltered query holds, after every kind of write', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await add(`sized-${String(i).padStart(2, '0')}-${(i * 7) % 12}`, 100 * ((i * 5) % 12)));
    const sizes = (await run('type = "resource" ORDER BY id LIMIT 1000')).map((r) => r.FileSize).sort((a, b) => a - b);
    const cut = sizes[4];
    await expectPages(`fileSize > ${cut}`, (r) => r.FileSize > cut);
    await expectPages(`fileSize <= ${cut}`, (r) => r.FileSize <= cut);
    await expectPages(`fileSize >= ${cut} AND name ~ "-1"`, (r) => r.FileSize >= cut && r.Name.includes('-1'));

    // A new version changes a size; deleted rows leave the index.
    const v = await postMultipart(lib, `/v1/resource/versions?resourceId=${ids[0]}`, 'file', [{ name: 'big.pdf', type: 'application/pdf', data: pdf('y'.repeat(5000)) }]);
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    expect((await lib.json('POST', '/v1/resources/delete', { ID: [ids[3], ids[7]] })).status).toBe(200);
    await expectPages(`fileSize > ${cut}`, (r) => r.FileSize > cut);
    expect((await run(`type = "resource" AND fileSize > ${cut} ORDER BY created DESC, id DESC LIMIT 100`)).map((r) => r.ID)).toContain(ids[0]);
  });
});
