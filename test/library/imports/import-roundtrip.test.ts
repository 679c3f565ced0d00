// Export → import into a fresh library, compared entity by entity: groups with their hierarchy,
// categories, tags, relations both ways, resources with identical bytes, hashes and versions,
// series, notes with blocks in order. Then the same archive again (GUIDs match: nothing is
// duplicated), the second apply of one plan (409), and the audit entry.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { buildFixture, shared, snapshot, type Fixture } from '../../helpers/transfer-fixture.js';
import { applyImport, exportArchive, parseArchive, type ImportResult, type Plan } from '../../helpers/transfer.js';

let source: TestLibrary;
let target: TestLibrary;
let fx: Fixture;
let archive: Buffer;
let importId: string;
let plan: Plan;
let result: ImportResult;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Drops references to entities the other library does not have (they were dangling). */
function onlyKnown(value: unknown, known: Set<string>): unknown {
  if (Array.isArray(value)) {
    return value
      .filter((v) => !(typeof v === 'string' && UUID.test(v) && !known.has(v)))
      .filter((v) => !(typeof v === 'string' && /->([0-9a-f-]{36}):/.test(v) && !known.has(/->([0-9a-f-]{36}):/.exec(v)![1])))
      .map((v) => onlyKnown(v, known));
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, onlyKnown(v, known)]));
  return value;
}

beforeAll(async () => {
  source = await startTestLibrary(['-hash-worker-disabled']);
  target = await startTestLibrary(['-hash-worker-disabled']);
  fx = await buildFixture(source);
  expect((await source.fetch(`/v1/resource/preview?id=${fx.logo}&Height=20`)).status).toBe(200);
  archive = (await exportArchive(source, { rootGroupIds: [fx.acme], fidelity: { resource_versions: true, resource_previews: true } })).bytes;
  // The table block's saved query exists on the other side under the same name.
  expect((await target.json('POST', '/v1/query', { Name: 'all tags', Text: 'SELECT name FROM tags' })).status).toBe(200);
  ({ id: importId, plan } = await parseArchive(target, archive));
});
afterAll(async () => {
  await source?.close();
  await target?.close();
});

describe('plan', () => {
  it('summarises the archive and its group tree', () => {
    expect(plan.counts).toMatchObject({ groups: 3, shell_groups: 0, notes: 2, resources: 4, series: 1, blobs: 5, versions: 5 });
    expect(plan.counts.previews).toBeGreaterThanOrEqual(1);
    expect(plan.items).toHaveLength(1);
    const acme = plan.items[0];
    expect(acme).toMatchObject({ export_id: 'g0001', name: 'Acme', resource_count: 1, note_count: 1, descendant_resource_count: 4, descendant_note_count: 2, guid_match: false });
    expect(acme.children.map((c) => c.name)).toEqual(['Team']);
    expect(acme.children[0].children.map((c) => c.name)).toEqual(['Alice']);
    expect(plan.conflicts).toEqual({ resource_hash_matches: 0, guid_matches: 0 });
    expect(plan.manifest_only_missing_hashes).toBe(0);
  });

  it('suggests mapping what exists here and creating the rest', () => {
    const by = (kind: string) => Object.fromEntries(plan.mappings[kind].map((m) => [m.source_key, m]));
    const cats = by('categories');
    expect(cats.Person).toMatchObject({ suggestion: 'map', destination_name: 'Person', has_payload: true, ambiguous: false });
    expect(cats.Project).toMatchObject({ suggestion: 'create', destination_id: null });
    expect(by('resource_categories').Default).toMatchObject({ suggestion: 'map', destination_name: 'Default' });
    expect(by('resource_categories').Scans).toMatchObject({ suggestion: 'create' });
    expect(by('note_types').Meeting).toMatchObject({ suggestion: 'create' });
    expect(Object.keys(by('tags')).sort()).toEqual(['alpha', 'beta']);
    expect(plan.mappings.group_relation_types.map((m) => m.source_key).sort()).toEqual(['Worked on by|Project|Person', 'Works on|Person|Project']);
    expect(plan.mappings.group_relation_types.every((m) => m.decision_key.startsWith('group_relation_type:'))).toBe(true);
    expect(plan.mappings.categories.every((m) => /^category:c\d{4}$/.test(m.decision_key))).toBe(true);
    expect(plan.series_info).toEqual([expect.objectContaining({ slug: 'holiday', action: 'create', dest_id: null })]);
    expect(plan.dangling_refs.map((d) => d.kind).sort()).toEqual(['related_group', 'related_resource', 'related_resource']);
  });
});

describe('apply into a fresh library', () => {
  beforeAll(async () => {
    result = await applyImport(target, importId);
  });

  it('reports what it created', () => {
    expect(result).toMatchObject({
      created_categories: 1,
      created_note_types: 1,
      created_resource_categories: 1,
      created_tags: 2,
      created_grts: 2,
      created_series: 1,
      reused_series: 0,
      created_groups: 3,
      created_resources: 4,
      created_notes: 2,
      created_versions: 5,
      skipped_by_hash: 0,
      skipped_missing_bytes: 0,
      merged_groups: 0,
      linked_by_guid_groups: 0,
      retry_safe: true,
    });
    expect(result.created_previews as number).toBeGreaterThanOrEqual(1);
    expect(result.created_group_ids).toHaveLength(3);
    expect(result.created_resource_ids).toHaveLength(4);
    expect(result.created_note_ids).toHaveLength(2);
  });

  it('reproduces every imported entity exactly', async () => {
    const a = await snapshot(source);
    const b = await snapshot(target);
    const imported = Object.keys(b).filter((k) => !k.endsWith(':null'));
    expect(imported.filter((k) => k.startsWith('group:'))).toHaveLength(3);
    expect(imported.filter((k) => k.startsWith('resource:'))).toHaveLength(4);
    expect(imported.filter((k) => k.startsWith('note:'))).toHaveLength(2);
    const known = new Set(Object.keys(b).map((k) => k.split(':')[1]));
    expect(b).toEqual(onlyKnown(shared(a, b), known));
  });

  it('keeps the hierarchy, the relations both ways, categories and tags', async () => {
    const groups = (await target.json<{ ID: number; Name: string; OwnerId: number | null; Category: { Name: string } | null; Tags: { Name: string }[] }[]>('GET', '/v1/groups')).body;
    const named = Object.fromEntries(groups.map((g) => [g.Name, g]));
    expect(named.Acme.OwnerId).toBeNull();
    expect(named.Team.OwnerId).toBe(named.Acme.ID);
    expect(named.Alice.OwnerId).toBe(named.Team.ID);
    expect(named.Acme.Category?.Name).toBe('Project');
    expect(named.Acme.Tags.map((t) => t.Name)).toEqual(['alpha']);
    type Rel = { FromGroupId: number; ToGroupId: number; RelationType: { Name: string } };
    const read = (await target.json<{ Relationships: Rel[]; BackRelations: Rel[] }>('GET', `/v1/group?id=${named.Acme.ID}`)).body;
    expect(read.Relationships.map((r) => [r.FromGroupId, r.RelationType.Name, r.ToGroupId])).toEqual([[named.Acme.ID, 'Worked on by', named.Alice.ID]]);
    expect(read.BackRelations.map((r) => [r.FromGroupId, r.RelationType.Name, r.ToGroupId])).toEqual([[named.Alice.ID, 'Works on', named.Acme.ID]]);
    const type = (await target.json<{ ID: number; Name: string; BackRelationId: number | null }[]>('GET', '/v1/relationTypes')).body;
    const works = type.find((t) => t.Name === 'Works on')!;
    expect(works.BackRelationId).toBe(type.find((t) => t.Name === 'Worked on by')!.ID);
    const cat = (await target.json<{ Name: string; CustomHeader: string; MetaSchema: string; SectionConfig: string }[]>('GET', '/v1/categories?Name=Project')).body[0];
    expect(cat).toMatchObject({ CustomHeader: '<h2>{{ entity.Name }}</h2>', SectionConfig: '{"tags":false}' });
  });

  it('stores identical bytes under the same hashes, with versions and previews', async () => {
    for (const id of result.created_resource_ids) {
      const r = (await target.json<{ Hash: string; url: string; versions: { hash: string }[] }>('GET', `/v1/resource?id=${id}`)).body;
      const file = await target.fetch(r.url);
      expect(file.status).toBe(200);
      expect(createHash('sha1').update(Buffer.from(await file.arrayBuffer())).digest('hex')).toBe(r.Hash);
      for (const v of r.versions) {
        const vf = await target.fetch(`/v1/resource/version/file?versionId=${(v as unknown as { id: number }).id}`);
        expect(createHash('sha1').update(Buffer.from(await vf.arrayBuffer())).digest('hex')).toBe(v.hash);
      }
    }
    const logo = (await target.json<{ ID: number; Name: string }[]>('GET', '/v1/resources?Name=logo')).body[0];
    const preview = await target.fetch(`/v1/resource/preview?id=${logo.ID}&Height=20`);
    expect(preview.headers.get('content-type')).toBe('image/jpeg');
  });

  it('keeps note blocks in order with their state and rewired references', async () => {
    const note = (await target.json<{ ID: number; Name: string }[]>('GET', '/v1/notes?Name=Kick-off')).body[0];
    const blocks = (await target.json<{ type: string; content: Record<string, unknown>; state: Record<string, unknown> }[]>('GET', `/v1/note/blocks?noteId=${note.ID}`)).body;
    expect(blocks.map((b) => b.type)).toEqual(['text', 'heading', 'todos', 'gallery', 'references', 'table', 'table', 'divider']);
    expect(blocks[2].state).toEqual({ checked: ['a'] });
    const photo = (await target.json<{ ID: number }[]>('GET', '/v1/resources?Name=photo.jpg')).body[0];
    const logo = (await target.json<{ ID: number }[]>('GET', '/v1/resources?Name=logo')).body[0];
    expect(blocks[3].content).toEqual({ resourceIds: [photo.ID, logo.ID] });
    const queries = (await target.json<{ ID: number }[]>('GET', '/v1/queries')).body;
    expect(blocks[5].content).toMatchObject({ queryId: queries[0].ID });
    const full = (await target.json<{ Description: string }>('GET', `/v1/note?id=${note.ID}`)).body;
    expect(full.Description).toBe('Agenda for the **kick-off**');
  });

  it('records one aggregate audit entry', async () => {
    const logs = (await target.json<{ logs: { entityType: string; action: string; message: string }[] }>('GET', '/v1/logs?EntityType=group_import')).body.logs;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ action: 'create' });
    expect(logs[0].message).toMatch(/created 3 groups, 4 resources, 2 notes/);
  });

  it('refuses a second apply of the same plan', async () => {
    const again = await target.json<{ error: string }>('POST', `/v1/imports/${importId}/apply`, {});
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already applied/);
    // The plan stays readable after the apply.
    expect((await target.json('GET', `/v1/imports/${importId}/plan`)).status).toBe(200);
  });
});

describe('importing the same archive again', () => {
  it('recognises every entity by GUID and duplicates nothing (merge by default)', async () => {
    const before = await snapshot(target);
    const { id, plan: second } = await parseArchive(target, archive);
    expect(second.conflicts.guid_matches).toBe(9);
    expect(second.items[0]).toMatchObject({ guid_match: true, guid_match_name: 'Acme' });
    const cats = Object.fromEntries(second.mappings.categories.map((m) => [m.source_key, m]));
    expect(cats.Project).toMatchObject({ suggestion: 'map', guid_match_id: expect.any(Number), guid_conflict: false });
    expect(second.series_info[0]).toMatchObject({ action: 'reuse_existing' });
    const r = await applyImport(target, id);
    expect(r).toMatchObject({
      created_groups: 0,
      created_resources: 0,
      created_notes: 0,
      created_tags: 0,
      created_categories: 0,
      created_series: 0,
      reused_series: 1,
      merged_groups: 3,
      merged_resources: 4,
      merged_notes: 2,
      linked_by_guid_groups: 3,
      linked_by_guid_resources: 4,
      linked_by_guid_notes: 2,
    });
    const after = await snapshot(target);
    // Merging into identical rows changes nothing but the update time.
    const strip = (s: Record<string, Record<string, unknown>>) => JSON.parse(JSON.stringify(s, (k, v) => (k === 'updatedAt' ? undefined : v)));
    expect(strip(after)).toEqual(strip(before));
  });
});
