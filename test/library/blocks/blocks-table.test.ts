// Query-backed table blocks: GET /v1/note/block/table/query with positional column ids,
// synthetic row ids, cachedAt, and extra parameters merged over the stored queryParams.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';

type TableData = { columns: { id: string; label: string }[]; rows: Record<string, unknown>[]; cachedAt: string; queryId: number; isStatic: boolean };

let lib: TestLibrary;
let noteId: number;
beforeAll(async () => {
  lib = await startTestLibrary();
  noteId = (await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'tables' })).body.ID;
  for (const [name, meta] of [
    ['tq-apple', '{"color": "red", "n": 1}'],
    ['tq-banana', '{"color": "yellow", "n": 2}'],
    ['tq-cherry', '{"color": "red", "n": 3}'],
  ]) {
    await lib.json('POST', '/v1/tag', { Name: name, Meta: meta });
  }
});
afterAll(async () => lib?.close());

async function query(name: string, text: string): Promise<number> {
  const r = await lib.json<{ ID: number }>('POST', '/v1/query', { Name: name, Text: text });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.ID;
}

async function tableBlock(content: Record<string, unknown>): Promise<number> {
  const r = await lib.json<{ id: number }>('POST', '/v1/note/block', { noteId, type: 'table', content });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

describe('table blocks backed by a saved query', () => {
  it('keys columns by position so duplicate names and a column named id cannot collide', async () => {
    const q = await query('dupes', "SELECT name, name AS name, 'x' AS id, meta FROM tags WHERE name LIKE 'tq-%' ORDER BY name");
    const block = await tableBlock({ queryId: q });
    const before = Date.now();
    const r = await lib.json<TableData>('GET', `/v1/note/block/table/query?blockId=${block}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.columns).toEqual([
      { id: 'col_0', label: 'name' },
      { id: 'col_1', label: 'name' },
      { id: 'col_2', label: 'id' },
      { id: 'col_3', label: 'meta' },
    ]);
    expect(r.body.rows).toHaveLength(3);
    const { col_3: json, ...first } = r.body.rows[0];
    expect(first).toEqual({ id: 'row_0', col_0: 'tq-apple', col_1: 'tq-apple', col_2: 'x' });
    // A JSON-document cell arrives as compact JSON text.
    expect(typeof json).toBe('string');
    expect(json).not.toMatch(/\s/);
    expect(JSON.parse(json as string)).toEqual({ color: 'red', n: 1 });
    expect(r.body.rows.map((row) => row.id)).toEqual(['row_0', 'row_1', 'row_2']);
    expect(r.body.queryId).toBe(q);
    expect(r.body.isStatic).toBe(false);
    expect(Date.parse(r.body.cachedAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('binds stored queryParams, with request parameters winning', async () => {
    const q = await query('by color', "SELECT name FROM tags WHERE name LIKE 'tq-%' AND CAST(meta AS text) LIKE :pattern ORDER BY name LIMIT :max");
    const block = await tableBlock({ queryId: q, queryParams: { pattern: '%red%', max: 10 }, isStatic: true });
    const stored = await lib.json<TableData>('GET', `/v1/note/block/table/query?blockId=${block}`);
    expect(stored.body.rows.map((r) => r.col_0)).toEqual(['tq-apple', 'tq-cherry']);
    expect(stored.body.isStatic).toBe(true);
    const merged = await lib.json<TableData>('GET', `/v1/note/block/table/query?blockId=${block}&pattern=${encodeURIComponent('%yellow%')}`);
    expect(merged.body.rows.map((r) => r.col_0)).toEqual(['tq-banana']);
    const capped = await lib.json<TableData>('GET', `/v1/note/block/table/query?blockId=${block}&MAX=1`);
    expect(capped.body.rows.map((r) => r.col_0)).toEqual(['tq-apple']);
  });

  it('refuses blocks that are not query-backed tables, and missing blocks', async () => {
    const staticBlock = await tableBlock({ columns: ['a'], rows: [{ a: 1 }] });
    const text = (await lib.json<{ id: number }>('POST', '/v1/note/block', { noteId, type: 'text' })).body.id;
    const a = await lib.json<{ error: string }>('GET', `/v1/note/block/table/query?blockId=${staticBlock}`);
    expect(a.status).toBe(400);
    expect(a.body.error).toMatch(/not backed by a saved query/);
    const b = await lib.json<{ error: string }>('GET', `/v1/note/block/table/query?blockId=${text}`);
    expect(b.status).toBe(400);
    expect(b.body.error).toMatch(/is not a table block/);
    expect((await lib.json('GET', '/v1/note/block/table/query?blockId=999999')).status).toBe(404);
    expect((await lib.json('GET', '/v1/note/block/table/query')).status).toBe(400);
  });

  it('runs read-only: a saved query that writes is refused', async () => {
    const q = await query('writer', "DELETE FROM tags WHERE name = 'tq-apple'");
    const block = await tableBlock({ queryId: q });
    const r = await lib.json<{ error: string }>('GET', `/v1/note/block/table/query?blockId=${block}`);
    expect(r.status).toBe(400);
    expect((await lib.json<unknown[]>('GET', '/v1/tags?Name=tq-apple')).body).toHaveLength(1);
  });

  it('renders query results on the note page, sorted by the block state', async () => {
    const q = await query('for page', "SELECT name FROM tags WHERE name LIKE 'tq-%'");
    const block = await tableBlock({ queryId: q });
    await lib.json('PATCH', `/v1/note/block/state?id=${block}`, { state: { sortColumn: 'col_0', sortDirection: 'desc' } });
    const html = await (await lib.fetch(`/note?id=${noteId}`)).text();
    const section = html.slice(html.indexOf(`id="block-${block}"`));
    const cells = [...section.slice(0, section.indexOf('</table>')).matchAll(/data-value="(tq-[a-z]+)"/g)].map((m) => m[1]);
    expect(cells).toEqual(['tq-cherry', 'tq-banana', 'tq-apple']);
  });
});
