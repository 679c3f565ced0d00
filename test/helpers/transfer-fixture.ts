// A small library with one of everything an export carries, built through the API, and a
// snapshot of a library's content keyed by GUIDs and names (never database ids) so two
// libraries can be compared entity by entity after a round trip.
import { expect } from 'vitest';
import type { TestLibrary } from './library.js';
import { jpeg, pdf, png, postMultipart, upload } from './resources.js';

type Rec = { ID: number; id?: number };

async function post<T = Rec>(lib: TestLibrary, path: string, body: Record<string, unknown>): Promise<T> {
  const r = await lib.json<T>('POST', path, body);
  expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

async function resource(lib: TestLibrary, name: string, data: Buffer, fields: Record<string, string | number | (string | number)[]>): Promise<number> {
  const r = await upload(lib, [{ name, data }], fields);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body[0].ID as number;
}

export interface Fixture {
  acme: number;
  team: number;
  alice: number;
  outside: number;
  logo: number;
  photo: number;
  report: number;
  stray: number;
  meeting: number;
  diary: number;
  project: number;
  person: number;
  worksOn: number;
}

export async function buildFixture(lib: TestLibrary, seed = 1): Promise<Fixture> {
  const project = (
    await post(lib, '/v1/category', {
      Name: 'Project',
      Description: 'a piece of work',
      CustomHeader: '<h2>{{ entity.Name }}</h2>',
      MetaSchema: JSON.stringify({ type: 'object', properties: { budget: { type: 'number' } } }),
      SectionConfig: JSON.stringify({ tags: false }),
    })
  ).ID;
  const person = (await lib.json<Rec[]>('GET', '/v1/categories?Name=Person')).body.find((c) => (c as unknown as { Name: string }).Name === 'Person')!.ID;
  const worksOn = (await post<{ ID: number }>(lib, '/v1/relationType', { Name: 'Works on', ReverseName: 'Worked on by', FromCategory: person, ToCategory: project, Description: 'who works where' })).ID;
  const noteType = (await post(lib, '/v1/note/noteType', { Name: 'Meeting', CustomSummary: 'summary', ApplyTemplatesToShares: true })).ID;
  const scans = (await post(lib, '/v1/resourceCategory', { Name: 'Scans', Description: 'scanned paper' })).ID;
  const alpha = (await post(lib, '/v1/tag', { Name: 'alpha', Description: 'first', Meta: '{"colour":"red"}' })).ID;
  const beta = (await post(lib, '/v1/tag', { Name: 'beta' })).ID;

  const outside = (await post(lib, '/v1/group', { Name: 'Outside', CategoryId: project })).ID;
  const acme = (
    await post(lib, '/v1/group', { Name: 'Acme', Description: 'the **root**', URL: 'https://acme.example/', CategoryId: project, Tags: [alpha], Meta: '{"budget":12,"nested":{"a":[1,2]}}', Groups: [outside] })
  ).ID;
  const team = (await post(lib, '/v1/group', { Name: 'Team', OwnerId: acme, CategoryId: person, Tags: [beta] })).ID;
  const alice = (await post(lib, '/v1/group', { Name: 'Alice', OwnerId: team, CategoryId: person, Meta: '{"age":33}' })).ID;
  await post(lib, '/v1/group', { ID: team, Groups: [alice] });
  await post(lib, '/v1/relation', { FromGroupId: alice, ToGroupId: acme, GroupRelationTypeId: worksOn, Name: 'lead', Description: 'since 2020' });

  const logo = await resource(lib, 'logo.png', await png(48, 32, seed), { OwnerId: acme, Tags: [beta], Meta: '{"kind":"logo"}', Description: 'the logo', ResourceCategoryId: scans });
  const photo = await resource(lib, 'photo.jpg', await jpeg(40, 30, seed + 1), { OwnerId: team, SeriesSlug: 'holiday', Meta: '{"trip":"alps","day":1}', Groups: [acme] });
  await resource(lib, 'photo2.jpg', await jpeg(40, 30, seed + 2), { OwnerId: team, SeriesSlug: 'holiday', Meta: '{"trip":"alps","day":2}' });
  const report = await resource(lib, 'report.pdf', pdf(`report ${seed}`), { OwnerId: alice, Tags: [alpha, beta] });
  const v2 = await postMultipart(lib, `/v1/resource/versions?resourceId=${report}`, 'file', [{ name: 'report-v2.pdf', data: pdf(`report ${seed} v2`) }], { comment: 'second draft' });
  expect(v2.status).toBe(200);
  const stray = await resource(lib, 'stray.png', await png(10, 10, seed + 3), { OwnerId: outside, Groups: [acme] });

  const query = (await post(lib, '/v1/query', { Name: 'all tags', Text: 'SELECT name FROM tags' })).ID;
  const meeting = (
    await post(lib, '/v1/note', { Name: 'Kick-off', OwnerId: acme, NoteTypeId: noteType, Tags: [alpha], Resources: [logo, stray], Groups: [team], Meta: '{"room":"A"}', StartDate: '2024-03-01T10:00:00Z', EndDate: '2024-03-01T11:00:00Z' })
  ).ID;
  const block = (type: string, content: unknown) => post<{ id: number }>(lib, '/v1/note/block', { noteId: meeting, type, content });
  await block('text', { text: 'Agenda for the **kick-off**' });
  await block('heading', { text: 'Decisions', level: 3 });
  const todos = await block('todos', { items: [{ id: 'a', label: 'book room' }, { id: 'b', label: 'send invites' }] });
  expect((await lib.json('PATCH', '/v1/note/block/state', { id: todos.id, state: { checked: ['a'] } })).status).toBe(200);
  await block('gallery', { resourceIds: [photo, logo, stray] });
  await block('references', { groupIds: [team, outside] });
  await block('table', { queryId: query });
  await block('table', { columns: ['x', 'y'], rows: [{ x: 1, y: 'two' }] });
  await block('divider', {});
  const diary = (await post(lib, '/v1/note', { Name: 'Diary', OwnerId: alice, Description: 'plain text note' })).ID;
  await post(lib, '/v1/note', { Name: 'Elsewhere', OwnerId: outside });
  return { acme, team, alice, outside, logo, photo, report, stray, meeting, diary, project, person, worksOn };
}

type Row = Record<string, unknown>;
const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

/** Every content entity keyed by GUID (or name), with references as GUIDs/names. */
export async function snapshot(lib: TestLibrary): Promise<Record<string, Row>> {
  const db = lib.lib.db;
  const groups = await db.selectFrom('groups').selectAll().execute();
  const notes = await db.selectFrom('notes').selectAll().execute();
  const resources = await db.selectFrom('resources').selectAll().execute();
  const guid = new Map<string, string | null>();
  for (const g of groups) guid.set(`g${g.id}`, g.guid);
  for (const n of notes) guid.set(`n${n.id}`, n.guid);
  for (const r of resources) guid.set(`r${r.id}`, r.guid);
  const cats = new Map((await db.selectFrom('categories').select(['id', 'name']).execute()).map((c) => [c.id, c.name]));
  const types = new Map((await db.selectFrom('note_types').select(['id', 'name']).execute()).map((c) => [c.id, c.name]));
  const rcats = new Map((await db.selectFrom('resource_categories').select(['id', 'name']).execute()).map((c) => [c.id, c.name]));
  const tags = new Map((await db.selectFrom('tags').select(['id', 'name']).execute()).map((c) => [c.id, c.name]));
  const series = new Map((await db.selectFrom('series').selectAll().execute()).map((s) => [s.id, s]));
  const join = async (table: 'group_tags' | 'note_tags' | 'resource_tags' | 'group_related_groups' | 'groups_related_resources' | 'groups_related_notes' | 'resource_notes') => (await db.selectFrom(table).selectAll().execute()) as unknown as Row[];
  const [gt, nt, rt, grg, grr, grn, rn] = await Promise.all(['group_tags', 'note_tags', 'resource_tags', 'group_related_groups', 'groups_related_resources', 'groups_related_notes', 'resource_notes'].map((t) => join(t as never)));
  const pick = (rows: Row[], col: string, id: number, other: string, map: (v: number) => unknown) => rows.filter((r) => r[col] === id).map((r) => map(r[other] as number)).sort();
  const relations = await db.selectFrom('group_relations as r').innerJoin('group_relation_types as t', 't.id', 'r.relation_type_id').select(['r.from_group_id', 'r.to_group_id', 'r.name', 'r.description', 't.name as type']).execute();
  const versions = await db.selectFrom('resource_versions').selectAll().orderBy('version_number').execute();
  const blocks = await db.selectFrom('note_blocks').selectAll().orderBy('position').orderBy('id').execute();
  const out: Record<string, Row> = {};
  for (const g of groups) {
    out[`group:${g.guid}`] = {
      name: g.name,
      description: g.description,
      url: g.url,
      meta: parse(g.meta),
      category: g.category_id ? cats.get(g.category_id) : null,
      owner: g.owner_id ? guid.get(`g${g.owner_id}`) : null,
      tags: pick(gt, 'group_id', g.id, 'tag_id', (t) => tags.get(t)),
      relatedGroups: pick(grg, 'group_id', g.id, 'related_group_id', (x) => guid.get(`g${x}`)),
      relatedResources: pick(grr, 'group_id', g.id, 'resource_id', (x) => guid.get(`r${x}`)),
      relatedNotes: pick(grn, 'group_id', g.id, 'note_id', (x) => guid.get(`n${x}`)),
      relations: relations.filter((r) => r.from_group_id === g.id).map((r) => `${r.type}->${guid.get(`g${r.to_group_id}`)}:${r.name}:${r.description}`).sort(),
      createdAt: g.created_at,
    };
  }
  for (const r of resources) {
    out[`resource:${r.guid}`] = {
      name: r.name,
      originalName: r.original_name,
      description: r.description,
      hash: r.hash,
      fileSize: Number(r.file_size),
      contentType: r.content_type,
      width: r.width,
      height: r.height,
      meta: parse(r.meta),
      ownMeta: parse(r.own_meta),
      series: r.series_id ? series.get(r.series_id)!.slug : null,
      owner: r.owner_id ? guid.get(`g${r.owner_id}`) : null,
      category: rcats.get(r.resource_category_id),
      tags: pick(rt, 'resource_id', r.id, 'tag_id', (t) => tags.get(t)),
      notes: pick(rn, 'resource_id', r.id, 'note_id', (x) => guid.get(`n${x}`)),
      versions: versions.filter((v) => v.resource_id === r.id).map((v) => `${v.version_number}:${v.hash}:${v.comment}:${v.id === r.current_version_id ? 'current' : ''}`),
      createdAt: r.created_at,
    };
  }
  for (const n of notes) {
    out[`note:${n.guid}`] = {
      name: n.name,
      description: n.description,
      meta: parse(n.meta),
      owner: n.owner_id ? guid.get(`g${n.owner_id}`) : null,
      type: n.note_type_id ? types.get(n.note_type_id) : null,
      tags: pick(nt, 'note_id', n.id, 'tag_id', (t) => tags.get(t)),
      resources: pick(rn, 'note_id', n.id, 'resource_id', (x) => guid.get(`r${x}`)),
      groups: pick(grn, 'note_id', n.id, 'group_id', (x) => guid.get(`g${x}`)),
      start: n.start_date,
      end: n.end_date,
      blocks: blocks
        .filter((b) => b.note_id === n.id)
        .map((b) => {
          const content = parse(b.content) as Row;
          if (Array.isArray(content.resourceIds)) content.resourceIds = (content.resourceIds as number[]).map((x) => guid.get(`r${x}`));
          if (Array.isArray(content.groupIds)) content.groupIds = (content.groupIds as number[]).map((x) => guid.get(`g${x}`));
          if (typeof content.queryId === 'number') content.queryId = 'query';
          return { type: b.type, position: b.position, content, state: parse(b.state) };
        }),
    };
  }
  return out;
}

/** The snapshot of `a` restricted to the entities `b` has (matched by GUID). */
export function shared(a: Record<string, Row>, b: Record<string, Row>): Record<string, Row> {
  return Object.fromEntries(Object.entries(a).filter(([k]) => k in b));
}
