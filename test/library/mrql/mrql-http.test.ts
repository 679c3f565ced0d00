// HTTP tests of /v1/mrql… (mrql.md §14, §25.10–25.12) against the §24 fixture.
process.env.TZ = 'UTC';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { loadFixture } from '../../helpers/mrql-fixture.js';
import { mrqlFilterFromFilterString, mrqlListFilter } from '../../../src/library/mrql/filter.js';
import { toHttpError } from '../../../src/core/http/server.js';

let t: TestLibrary;
beforeAll(async () => {
  t = await startTestLibrary();
  await loadFixture(t);
});
afterAll(async () => t?.close());

type Flat = { entityType: string; resources: { ID: number }[]; notes: { ID: number }[]; groups: { ID: number }[]; counts: Record<string, number>; default_limit_applied: boolean; applied_limit: number; error?: string };
const mrql = (body: unknown, qs = '') => t.json<Flat & Record<string, unknown>>('POST', `/v1/mrql${qs}`, body);
const rids = (b: Flat) => b.resources.map((r) => r.ID);

describe('§25.10 parameters', () => {
  it('T270–T273, T283: binding and bind errors', async () => {
    const q = 'type = resource AND fileSize > $min';
    expect(rids((await mrql({ query: q, params: { min: '1mb' } })).body).sort()).toEqual([1, 5]);
    expect((await mrql({ query: q, params: {} })).body).toEqual({ error: 'missing parameter $min' });
    const extra = await mrql({ query: q, params: { min: '1mb', max: 2 } });
    expect([extra.status, extra.body.error]).toEqual([400, 'unknown parameter $max']);
    expect((await mrql({ query: 'type = resource AND tags = $a AND name = $b', params: {} })).body.error).toBe('missing parameters: $a, $b');
    expect((await mrql({ query: 'type = resource AND fileSize > 1', params: { x: 1 } })).body.error).toBe('unknown parameter $x');
  });
  it('T274: a bound value is never SQL', async () => {
    const r = await mrql({ query: 'type = resource AND name = $n', params: { n: 'x" OR 1=1' } });
    expect([r.status, rids(r.body)]).toEqual([200, []]);
  });
  it('T275: "\\"42\\"" binds the string 42', async () => {
    const r = await mrql({ query: 'type = resource AND fileSize > $n', params: { n: '"42"' } });
    expect([r.status, r.body.error]).toEqual([400, 'validation error at position 31: field "fileSize" is numeric but got a non-numeric value']);
    expect(r.body).toMatchObject({ position: 31, length: 0 });
  });
  it('T276–T278: booleans, relative dates and a bound entity type', async () => {
    expect((await mrql({ query: 'type = note AND shared = $s', params: { s: true } })).body.notes.map((n) => n.ID)).toEqual([1]);
    expect(rids((await mrql({ query: 'type = resource AND created > $s', params: { s: '-30d' } })).body)).toEqual([4]);
    const r = await mrql({ query: 'type = $t AND noteType = 1', params: { t: 'note' } });
    expect([r.body.entityType, r.body.notes.map((n) => n.ID)]).toEqual(['note', [1]]);
  });
  it('T279: the query string wins over the JSON params; form fields bind too', async () => {
    const r = await mrql({ query: 'type = resource AND tags = $tag', params: { tag: 'red' } }, '?param.tag=blue');
    expect(rids(r.body)).toEqual([1]);
    const f = await t.form('/v1/mrql', [['query', 'type = resource AND tags = $tag'], ['param.tag', 'green']], { accept: 'application/json' });
    expect(((await f.json()) as Flat).resources.map((x) => x.ID)).toEqual([4]);
  });
  it('T280: validate lists params', async () => {
    const r = await t.json('POST', '/v1/mrql/validate', { query: 'type = resource AND tags = $tag AND created > $since AND name ~ $tag' });
    expect(r.body).toEqual({ valid: true, errors: [], params: ['tag', 'since'] });
  });
  it('T281/T282: saved run binds param.<name>', async () => {
    expect(rids((await mrql({}, '/saved/run?id=1&param.tag=red')).body)).toEqual([1, 2]);
    expect((await t.json<{ error: string }>('POST', '/v1/mrql/saved/run?id=1')).body.error).toBe('missing parameter $tag');
  });
});

describe('§25.11 list filters', () => {
  it('T286: group list with an MRQL filter, combined with other filters', async () => {
    const r = await t.json<{ ID: number }[]>('GET', `/v1/groups?mrql=${encodeURIComponent('descendants.tags = "blue"')}`);
    expect([r.status, r.body.map((g) => g.ID)]).toEqual([200, [1]]);
    const both = await t.json<{ ID: number }[]>('GET', `/v1/groups?MRQL=${encodeURIComponent('parent = "Studio"')}&Name=Beta`);
    expect(both.body.map((g) => g.ID)).toEqual([5]);
    const combined = await t.json<{ ID: number }[]>('GET', `/v1/groups?mrql=${encodeURIComponent('parent = "Studio"')}&Tags=1`);
    expect(combined.body.map((g) => g.ID)).toEqual([5]);
  });
  it('T287-like: type, ORDER BY and placeholders are rejected with position and length', async () => {
    let r = await t.json('GET', `/v1/groups?mrql=${encodeURIComponent('type = "note"')}`);
    expect([r.status, r.body]).toEqual([400, { error: 'the type field is implied by the page and cannot be used in a filter expression', position: 0, length: 4 }]);
    r = await t.json('GET', `/v1/groups?mrql=${encodeURIComponent('tags = "a" ORDER BY name')}`);
    expect(r.body).toEqual({ error: 'ORDER BY is not allowed in a filter expression; the list page controls sort and pagination', position: 11, length: 8 });
    r = await t.json('GET', `/v1/groups?mrql=${encodeURIComponent('tags = $t')}`);
    expect(r.body).toEqual({ error: 'parameter placeholder $t is not allowed in a filter expression', position: 7, length: 2 });
    r = await t.json('GET', `/v1/groups?mrql=${encodeURIComponent('SIMILAR TO resource(1)')}`);
    expect(r.body).toEqual({ error: 'SIMILAR TO requires type = "resource" — only resources have perceptual hashes', position: 0, length: 10 });
  });
  it('T291: a blank filter means no filter', async () => {
    const r = await t.json<unknown[]>('GET', '/v1/groups?mrql=%20%20');
    expect([r.status, r.body.length]).toEqual([200, 5]);
  });
  it('T296: filter-mode validate', async () => {
    const r = await t.json('POST', '/v1/mrql/validate', { query: 'tags = "a" LIMIT 5', filter: true, entityType: 'resource' });
    expect(r.body).toEqual({ valid: false, errors: [{ message: 'LIMIT is not allowed in a filter expression; the list page controls sort and pagination', position: 11, length: 5 }], params: [] });
  });
});

describe('§18 list filter functions for the resource and note lists and mass edit', () => {
  const ids = async (table: 'resources' | 'notes', entity: 'resource' | 'note', text: string) => {
    const f = mrqlListFilter(t.lib, entity, text, table);
    let q = t.lib.db.selectFrom(table).select('id').orderBy('id');
    if (f) q = q.where(f);
    return (await q.execute()).map((r) => r.id);
  };
  it('T284, T285, T291, T292: composed into the list statement', async () => {
    expect(await ids('resources', 'resource', 'tags = "red"')).toEqual([1, 2]);
    expect(await ids('notes', 'note', 'shared = true')).toEqual([1]);
    expect(await ids('resources', 'resource', '  ')).toEqual([1, 2, 3, 4, 5]);
    const f = mrqlListFilter(t.lib, 'resource', 'tags = "red"', 'resources')!;
    const both = await t.lib.db.selectFrom('resources').select('id').where(f).where('id', 'in', t.lib.db.selectFrom('resource_tags').select('resource_id').where('tag_id', '=', 2)).execute();
    expect(both.map((r) => r.id)).toEqual([1]);
  });
  it('T286–T290: invalid expressions are 400s with the position in the value', () => {
    const err = (entity: 'resource' | 'note', text: string) => {
      try {
        mrqlListFilter(t.lib, entity, text, 'x');
      } catch (e) {
        // The server's one mapping of errors to replies answers for the list endpoints.
        const h = toHttpError(e);
        return [h.status, h.message, h.extra];
      }
      return null;
    };
    expect(err('note', 'notes IS EMPTY')).toEqual([400, 'unknown or invalid field "notes" for entity type note', { position: 0, length: 5 }]);
    expect(err('resource', 'type = "note"')).toEqual([400, 'the type field is implied by the page and cannot be used in a filter expression', { position: 0, length: 4 }]);
    expect(err('note', 'SIMILAR TO resource(1)')).toEqual([400, 'SIMILAR TO requires type = "resource" — only resources have perceptual hashes', { position: 0, length: 10 }]);
  });
  it('T293–T295: mass-edit Filter strings', async () => {
    const f = mrqlFilterFromFilterString(t.lib, 'resource', '?Tags=3&mrql=tags%20%3D%20%22red%22&page=2&MRQL=ignored', 'resources')!;
    expect((await t.lib.db.selectFrom('resources').select('id').where(f).execute()).length).toBe(2);
    expect(mrqlFilterFromFilterString(t.lib, 'resource', '', 'resources')).toBeNull();
    try {
      mrqlFilterFromFilterString(t.lib, 'resource', 'mrql=tags%20%3D', 'resources');
      throw new Error('expected a 400');
    } catch (e) {
      const h = toHttpError(e);
      expect([h.status, h.message, h.extra]).toEqual([400, 'expected value (string, number, date, function, or identifier), got ""', { position: 6, length: 0 }]);
    }
  });
});

describe('§25.12 validate, complete, explain, export, saved queries', () => {
  it('T297–T299: validate', async () => {
    expect((await t.json('POST', '/v1/mrql/validate', { query: 'name = = "bad"' })).body).toEqual({
      valid: false,
      errors: [{ message: 'expected value (string, number, date, function, or identifier), got "="', position: 7, length: 1 }],
      params: [],
    });
    expect((await t.json('POST', '/v1/mrql/validate', { query: '   ' })).body).toEqual({ valid: false, errors: [{ message: 'query string must not be empty', position: 0, length: 0 }], params: [] });
    const r = await t.json<{ errors: { position: number }[] }>('POST', '/v1/mrql/validate', { query: '  name = = 1' });
    expect(r.body.errors[0].position).toBe(9);
  });
  it('T300–T305: complete', async () => {
    const c = async (body: unknown) => (await t.json<{ suggestions: { value: string; type: string; label?: string }[] }>('POST', '/v1/mrql/complete', body)).body.suggestions;
    expect(await c({ query: 'type = ', cursor: 7 })).toEqual(['resource', 'note', 'group'].map((value) => ({ value, type: 'entity_type' })));
    expect((await c({ query: 'name ', cursor: 5 })).map((s) => s.value)).toEqual(['=', '!=', '>', '>=', '<', '<=', '~', '!~', '~*', '!~*', 'BETWEEN', 'IN', 'NOT IN', 'IS']);
    const dates = await c({ query: 'created > ', cursor: 10 });
    expect(dates.map((s) => s.value)).toEqual(['-7d', '-30d', '-3m', '-1y', 'NOW()', 'START_OF_DAY()', 'START_OF_WEEK()', 'START_OF_MONTH()', 'START_OF_YEAR()']);
    expect(dates.slice(0, 4).every((s) => s.type === 'rel_date') && dates.slice(4).every((s) => s.type === 'function')).toBe(true);
    expect(await c({ query: 'type = resource AND tags.', cursor: 25 })).toEqual([{ value: 'count', type: 'field', label: 'relation count' }]);
    expect((await c({ query: 'tags = "a" ', cursor: 11, filter: true, entityType: 'resource' })).map((s) => s.value)).toEqual(['AND', 'OR']);
    expect(await c({ query: 'type = resource LIMIT ', cursor: 22 })).toEqual([]);
    expect((await c({ query: '', cursor: 0 }))[0]).toEqual({ value: 'type', type: 'field', label: 'entity type filter' });
  });
  it('T306–T309: explain', async () => {
    type Explain = { statements: { label: string; sql: string; vars: unknown[]; interpolated: string }[]; executionShape: Record<string, unknown>; entityType: string; warnings: string[]; default_limit_applied: boolean; applied_limit: number; queryFingerprint: string };
    const x = async (body: unknown) => t.json<Explain & { error?: string }>('POST', '/v1/mrql/explain', body);
    let r = (await x({ query: 'type = resource AND fileSize > 1mb' })).body;
    expect(r.statements.map((s) => s.label)).toEqual(['resource']);
    expect(r.statements[0].interpolated).toContain('1048576');
    expect(r.statements[0].sql).not.toContain('1048576');
    expect(r.executionShape.strategy).toBe('flat');
    expect([r.default_limit_applied, r.applied_limit]).toEqual([true, 500]);
    expect(r.queryFingerprint).toMatch(/^mrql-shape-v1:[0-9a-f]{64}$/);
    const other = (await x({ query: 'type = resource AND fileSize > 5mb' })).body;
    expect(other.queryFingerprint).toBe(r.queryFingerprint);
    const shape = (await x({ query: 'type = resource AND fileSize >= 5mb' })).body;
    expect(shape.queryFingerprint).not.toBe(r.queryFingerprint);
    r = (await x({ query: 'name ~ "t" LIMIT 5 OFFSET 7' })).body;
    expect(r.statements.map((s) => s.label)).toEqual(['resources', 'notes', 'groups']);
    for (const s of r.statements) {
      expect(s.vars).toContain(12);
      expect(s.sql).not.toMatch(/OFFSET/);
    }
    expect(r.executionShape).toMatchObject({ strategy: 'cross_entity', plannedStatements: 3, minimumStatements: 3, maximumStatements: 3 });
    expect(r.entityType).toBe('unspecified');
    r = (await x({ query: 'type = resource GROUP BY contentType' })).body;
    expect(r.statements.map((s) => s.label)).toEqual(['bucket keys']);
    expect(r.executionShape).toMatchObject({ strategy: 'bucket_fanout', dataDependent: true });
    expect(r.warnings.length).toBe(1);
    const e = await x({ query: 'type = resource AND name ~ $needle' });
    expect([e.status, e.body.error]).toEqual([400, 'missing parameter $needle']);
    const saved = await x({ id: 1, params: { tag: 'red' } });
    expect(saved.body.statements.length).toBe(1);
    const plan = await x({ query: 'type = resource LIMIT 1', nativePlan: true });
    expect((plan.body as unknown as { nativePlan: { dialect: string } }).nativePlan.dialect).toBe(t.lib.dialect.kind);
  });
  it('T311–T316: limits and paging', async () => {
    expect((await mrql({ query: 'type = resource LIMIT 20000' })).body.error).toBe('MRQL limit 20000 exceeds maximum 10000');
    expect((await mrql({ query: 'type = resource', limit: 2, page: 6000 })).body.error).toBe('MRQL offset 11998 exceeds maximum 10000');
    const edge = await mrql({ query: 'type = resource LIMIT 10000 OFFSET 10000' });
    expect([edge.status, rids(edge.body)]).toEqual([200, []]);
    expect((await mrql({ query: '' })).body).toEqual({ error: 'query is required' });
    const all = (await mrql({ query: 'type = resource' })).body;
    expect(all).toMatchObject({ default_limit_applied: true, applied_limit: 500, counts: { resources: 5, notes: 0, groups: 0 }, notes: [], groups: [], warnings: [] });
    const page = (await mrql({ query: 'type = resource ORDER BY id', limit: 2, page: 2 })).body;
    expect([rids(page), page.applied_limit, page.default_limit_applied]).toEqual([[3, 4], 2, false]);
  });
  it('T238/T241: scope errors over HTTP carry position and status', async () => {
    const r = await mrql({ query: 'type = resource SCOPE 99' });
    expect([r.status, r.body.error, r.body.position]).toEqual([404, 'scope group not found: id 99', 22]);
    const beta = await t.json<{ ID: number }>('POST', '/v1/group', { Name: 'beta', CategoryId: 9 });
    expect([beta.status, beta.body.ID]).toEqual([200, 6]);
    const a = await mrql({ query: 'type = resource SCOPE "BETA"' });
    expect([a.status, a.body.error]).toEqual([400, 'ambiguous scope "BETA": found 2 groups:\n  - id=5, parentId=1\n  - id=6, categoryId=9\nUse SCOPE <id> to specify which group.']);
    expect((await t.json('POST', '/v1/group/delete', { ID: beta.body.ID })).status).toBe(200);
  });
  it('T317–T324: saved queries', async () => {
    const bad = await t.json<{ error: string }>('POST', '/v1/mrql/saved', { name: 'x', query: 'type = resource AND bogus = 1' });
    expect([bad.status, bad.body.error]).toEqual([400, 'invalid MRQL query: validation error at position 20: unknown or invalid field "bogus" for entity type resource']);
    const syntax = await t.json('POST', '/v1/mrql/saved', { name: 'y', query: 'name = = 1' });
    expect([syntax.status, syntax.body]).toEqual([400, { error: 'invalid MRQL syntax: parse error at position 7: expected value (string, number, date, function, or identifier), got "="', position: 7, length: 1 }]);
    expect((await t.json<{ error: string }>('POST', '/v1/mrql/saved', { name: '  ', query: 'type = resource' })).body.error).toBe('saved MRQL query name must be non-empty');
    expect((await t.json<{ error: string }>('POST', '/v1/mrql/saved', { name: 'by tag', query: 'name ~ "a"' })).body.error).toBe('a saved MRQL query with that name already exists');
    const made = await t.json<{ id: number; params: string[]; name: string }>('POST', '/v1/mrql/saved', { name: 'param report', query: 'type = resource AND tags = $t' });
    expect([made.status, made.body.params]).toEqual([201, ['t']]);
    const broken = await t.json<{ error: string }>('POST', '/v1/mrql/saved/run?id=2');
    expect([broken.status, broken.body.error]).toEqual([400, 'saved query is no longer valid: validation error at position 20: unknown or invalid field "bogus" for entity type resource']);
    expect(broken.body).toMatchObject({ position: 20, length: 5 });
    expect(rids((await mrql({}, '/saved/run?id=99&name=by%20tag&param.tag=blue')).body)).toEqual([1]);
    expect((await t.json<{ error: string }>('POST', '/v1/mrql/saved/run')).body.error).toBe('saved MRQL query id or name is required');
    expect((await t.json('POST', '/v1/mrql/saved/run?id=99')).status).toBe(404);
    // read, list, update, delete
    const one = await t.json<{ name: string; createdAt: string }>('GET', `/v1/mrql/saved?id=${made.body.id}`);
    expect(one.body.name).toBe('param report');
    const list = await t.json<{ name: string }[]>('GET', '/v1/mrql/saved?all=1');
    expect(list.body.map((s) => s.name)).toEqual(['broken', 'by tag', 'param report']);
    const upd = await t.json<{ query: string; params: string[] }>('PUT', `/v1/mrql/saved?id=${made.body.id}`, { name: 'param report', query: '  type = note  ', description: 'd' });
    expect([upd.status, upd.body.query, upd.body.params]).toEqual([200, 'type = note', []]);
    expect((await t.json('PUT', '/v1/mrql/saved', { name: 'n', query: 'type = note' })).body).toEqual({ error: 'saved MRQL query id is required' });
    expect((await t.json('PUT', '/v1/mrql/saved?id=999', { name: 'n', query: 'type = note' })).status).toBe(404);
    expect((await t.json('POST', `/v1/mrql/saved/delete?id=${made.body.id}`)).body).toEqual({ id: made.body.id });
    expect((await t.json('GET', `/v1/mrql/saved?id=${made.body.id}`)).status).toBe(404);
    expect((await t.json('POST', '/v1/mrql/saved/delete')).status).toBe(400);
  });
  it('T325–T327: export', async () => {
    const csv = await t.fetch(`/v1/mrql/export?query=${encodeURIComponent('type = resource AND id = 4')}`);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('x-mrql-default-limit-applied')).toBe('500');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="mrql-export-2025-02-01.csv"');
    expect((await csv.text()).split('\r\n')).toEqual([
      'id,name,description,content_type,file_size,width,height,created_at,updated_at,owner_id,category_id,meta',
      '4,notes.txt,Groceries and errands,text/plain,900,0,0,2025-01-15T12:00:00Z,2025-01-15T12:00:00Z,,2,{}',
      '',
    ]);
    const cross = await t.json<{ error: string }>('GET', `/v1/mrql/export?query=${encodeURIComponent('tags = "red"')}`);
    expect([cross.status, cross.body.error]).toEqual([400, 'CSV export requires a single entity type (add type = "resource|note|group"); use format=json for cross-entity results']);
    const json = await t.fetch('/v1/mrql/export?format=json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'type = note AND shared = true', format: 'csv' }) });
    expect(json.headers.get('content-type')).toContain('application/json');
    const direct = await mrql({ query: 'type = note AND shared = true' });
    expect(await json.json()).toEqual(direct.body);
    const saved = await t.fetch('/v1/mrql/export?name=by%20tag&param.tag=red');
    expect(saved.headers.get('content-disposition')).toBe('attachment; filename="by-tag-2025-02-01.csv"');
    expect((await t.fetch('/v1/mrql/export?query=type%20%3D%20resource&format=xml')).status).toBe(400);
    expect((await t.fetch('/v1/mrql/export?query=type%20%3D%20resource&preflight=1')).status).toBe(204);
    const grouped = await t.fetch(`/v1/mrql/export?query=${encodeURIComponent('type = resource GROUP BY category COUNT() ORDER BY category')}`);
    expect((await grouped.text()).split('\r\n').slice(0, 3)).toEqual(['category,count', '1,3', '2,2']);
  });
  it('T330/T331 are covered by mrql-nofts.test.ts; generate without a provider is 503', async () => {
    const r = await t.json('POST', '/v1/mrql/generate', { prompt: 'photos from last week' });
    expect(r).toMatchObject({ status: 503, body: { error: 'MRQL generation is not configured' } });
  });
});

describe('§16 render=1', () => {
  type Rendered = { resources: { ID: number; renderedHTML: string }[] };
  it('T328: CustomMRQLResult with the carrier CSS once', async () => {
    const r = await t.json<Rendered>('POST', '/v1/mrql?render=1', { query: 'type = resource AND category = 1 ORDER BY id' });
    expect(r.body.resources.map((x) => [x.ID, x.renderedHTML])).toEqual([
      [1, '<style data-mr-custom-css="resource:1">.rc1{}</style><b>sunrise.jpg</b>'],
      [2, '<b>sunset.png</b>'],
      [5, '<b>Clip 100%.mp4</b>'],
    ]);
  });
  it('T329: entities without a template get an empty renderedHTML', async () => {
    const r = await t.json<Rendered>('POST', '/v1/mrql?render=1', { query: 'type = resource AND category = 2' });
    expect(r.body.resources.map((x) => x.renderedHTML)).toEqual(['', '']);
  });
  it('without render=1 there is no renderedHTML', async () => {
    const r = await t.json<Rendered>('POST', '/v1/mrql', { query: 'type = resource AND id = 1' });
    expect(r.body.resources[0].renderedHTML).toBeUndefined();
  });
});
