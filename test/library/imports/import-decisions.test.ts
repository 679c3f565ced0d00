// Import decisions: mapping suggestions (map / create / ambiguous → 422 until resolved), the
// GUID policies and the hash policies on re-import into the same library, missing bytes that
// must be acknowledged, excluded items, the parent group, shell groups and dangling references
// mapped onto local rows, and deleting a staged import.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { upload } from '../../helpers/resources.js';
import { buildFixture, type Fixture } from '../../helpers/transfer-fixture.js';
import { applyImport, exportArchive, parseArchive, rawTar, readTar, waitJob } from '../../helpers/transfer.js';

let lib: TestLibrary;
let fresh: TestLibrary;
let bare: TestLibrary;
let fx: Fixture;
let archive: Buffer;

type G = { ID: number; Name: string; Description: string; OwnerId: number | null; Meta: Record<string, unknown>; Tags: { Name: string }[] };
const group = async (l: TestLibrary, id: number) => (await l.json<G>('GET', `/v1/group?id=${id}`)).body;
const count = async (l: TestLibrary, path: string) => Number((await l.fetch(path)).headers.get('x-total-count') ?? (await (await l.fetch(path)).json()).length);

/** The archive with some JSON entries rewritten (order and other entries kept). */
async function rewrite(bytes: Buffer, change: (name: string, value: Record<string, unknown>) => Record<string, unknown>): Promise<Buffer> {
  const { names, files } = await readTar(bytes);
  return rawTar(
    names.map((name) => {
      const data = files.get(name)!;
      if (!name.endsWith('.json') || name.startsWith('schemas/')) return { name, data };
      return { name, data: Buffer.from(JSON.stringify(change(name, JSON.parse(data.toString('utf8'))))) };
    }),
  );
}

beforeAll(async () => {
  [lib, fresh, bare] = await Promise.all([startTestLibrary(['-hash-worker-disabled']), startTestLibrary(['-hash-worker-disabled']), startTestLibrary(['-hash-worker-disabled'])]);
  fx = await buildFixture(lib, 7);
  archive = (await exportArchive(lib, { rootGroupIds: [fx.acme] })).bytes;
});
afterAll(async () => {
  await Promise.all([lib?.close(), fresh?.close(), bare?.close()]);
});

describe('mappings', () => {
  it('suggests map for a unique match (exact case first), create for none, and leaves several open', async () => {
    await lib.json('POST', '/v1/note/noteType', { Name: 'Meeting' });
    await lib.json('POST', '/v1/category', { Name: 'PROJECT' });
    const names = await exportArchive(lib, { rootGroupIds: [fx.acme], schemaDefs: { categories_and_types: false, tags: false, group_relation_types: false } });
    const { id, plan } = await parseArchive(lib, names.bytes);
    const nt = plan.mappings.note_types.find((m) => m.source_key === 'Meeting')!;
    expect(nt).toMatchObject({ decision_key: 'note_type:Meeting', has_payload: false, ambiguous: true, destination_id: null });
    expect(nt.alternatives.map((a) => a.name)).toEqual(['Meeting', 'Meeting']);
    expect(plan.mappings.categories.find((m) => m.source_key === 'Project')).toMatchObject({ suggestion: 'map', destination_id: fx.project, ambiguous: false });
    expect(plan.mappings.tags.map((m) => [m.source_key, m.suggestion])).toEqual(
      expect.arrayContaining([
        ['alpha', 'map'],
        ['beta', 'map'],
      ]),
    );

    const open = await lib.json<{ error: string }>('POST', `/v1/imports/${id}/apply`, {});
    expect(open.status).toBe(422);
    expect(open.body.error).toMatch(/note_type:Meeting/);
    const bad = [
      [{ mapping_actions: { 'note_type:Nope': { action: 'create' } } }, 422],
      [{ mapping_actions: { 'note_type:Meeting': { action: 'map', destination_id: 999999 } } }, 422],
      [{ mapping_actions: { 'note_type:Meeting': { action: 'merge' } } }, 400],
      [{ mapping_actions: 'all' }, 400],
      [{ mapping_actions: { 'note_type:Meeting': { action: 'create' } }, guid_collision_policy: 'overwrite' }, 400],
      [{ mapping_actions: { 'note_type:Meeting': { action: 'create' } }, parent_group_id: 999999 }, 404],
      [{ mapping_actions: { 'note_type:Meeting': { action: 'create' } }, dangling_actions: { d9999: { action: 'drop' } } }, 422],
      [{ mapping_actions: { 'note_type:Meeting': { action: 'create' } }, excluded_items: 'g0001' }, 400],
    ] as const;
    for (const [body, status] of bad) expect((await lib.json('POST', `/v1/imports/${id}/apply`, body)).status, JSON.stringify(body)).toBe(status);
    const broken = await lib.fetch(`/v1/imports/${id}/apply`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{"mapping_actions":' });
    expect(broken.status).toBe(400);

    const chosen = nt.alternatives[1].id;
    const r = await applyImport(lib, id, { mapping_actions: { 'note_type:Meeting': { action: 'map', destination_id: chosen } }, guid_collision_policy: 'replace' });
    expect(r.created_note_types).toBe(0);
    const note = (await lib.json<{ NoteTypeId: number }>('GET', `/v1/note?id=${fx.meeting}`)).body;
    expect(note.NoteTypeId).toBe(chosen);
  });

  it('creates under a new name, or leaves vocabulary out, as decided', async () => {
    const { id, plan } = await parseArchive(fresh, archive);
    const project = plan.mappings.categories.find((m) => m.source_key === 'Project')!;
    const alpha = plan.mappings.tags.find((m) => m.source_key === 'alpha')!;
    const r = await applyImport(fresh, id, {
      mapping_actions: { [project.decision_key]: { action: 'create', rename_to: 'Imported project' }, [alpha.decision_key]: { include: false } },
      excluded_items: ['g0003'],
    });
    expect(r).toMatchObject({ created_categories: 1, created_tags: 1, created_groups: 2 });
    const cats = (await fresh.json<{ Name: string }[]>('GET', '/v1/categories')).body.map((c) => c.Name);
    expect(cats).toContain('Imported project');
    expect(cats).not.toContain('Project');
    expect((await fresh.json<{ Name: string }[]>('GET', '/v1/tags')).body.map((t) => t.Name)).toEqual(['beta']);
    // Alice was excluded, and with her what she owns.
    const groups = (await fresh.json<G[]>('GET', '/v1/groups')).body.map((g) => g.Name).sort();
    expect(groups).toEqual(['Acme', 'Team']);
    expect((await fresh.json<{ Name: string }[]>('GET', '/v1/resources?Name=report')).body).toEqual([]);
    expect((await fresh.json<{ Name: string }[]>('GET', '/v1/notes?Name=Diary')).body).toEqual([]);
  });
});

describe('missing bytes', () => {
  it('needs an acknowledgement, then imports metadata-only rows', async () => {
    const noBlobs = (await exportArchive(lib, { rootGroupIds: [fx.team], fidelity: { resource_blobs: false } })).bytes;
    const names = (await readTar(noBlobs)).names;
    expect(names.some((n) => n.startsWith('blobs/'))).toBe(false);
    // One of the files already exists here: it is not missing.
    const photo = (await lib.json<{ url: string }>('GET', `/v1/resource?id=${fx.photo}`)).body;
    const bytes = Buffer.from(await (await lib.fetch(photo.url)).arrayBuffer());
    expect((await upload(bare, [{ name: 'mine.jpg', data: bytes }])).status).toBe(200);
    const { id, plan } = await parseArchive(bare, noBlobs);
    expect(plan.counts.resources).toBe(3);
    expect(plan.manifest_only_missing_hashes).toBe(2);
    const refused = await bare.json<{ error: string }>('POST', `/v1/imports/${id}/apply`, {});
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatch(/acknowledge_missing_hashes/);
    const r = await applyImport(bare, id, { acknowledge_missing_hashes: true, resource_collision_policy: 'duplicate' });
    expect(r).toMatchObject({ created_resources: 3, skipped_missing_bytes: 2 });
    expect(r.warnings.join()).toMatch(/without its file/);
    const rows = (await bare.json<{ ID: number; Name: string; url: string; Hash: string }[]>('GET', '/v1/resources')).body;
    const report = rows.find((x) => x.Name === 'report.pdf')!;
    expect(report.Hash).toMatch(/^[0-9a-f]{40}$/);
    expect((await bare.fetch(report.url)).status).toBe(404);
    const shared = rows.filter((x) => x.Name === 'photo.jpg' || x.Name === 'mine.jpg');
    expect(shared).toHaveLength(2);
    for (const s of shared) expect((await bare.fetch(s.url)).status).toBe(200);
  });
});

describe('GUID policies on re-import', () => {
  it('skip leaves matched rows untouched', async () => {
    await lib.json('POST', '/v1/group', { ID: fx.acme, Description: 'changed here' });
    const { id, plan } = await parseArchive(lib, archive);
    expect(plan.conflicts.guid_matches).toBe(9);
    const r = await applyImport(lib, id, { guid_collision_policy: 'skip' });
    expect(r).toMatchObject({ skipped_by_policy_groups: 3, skipped_by_policy_resources: 4, skipped_by_policy_notes: 2, linked_by_guid_groups: 3, created_groups: 0, created_resources: 0, merged_groups: 0 });
    expect((await group(lib, fx.acme)).Description).toBe('changed here');
  });

  it('merge fills empty fields and adds missing meta keys and tags, keeping local values', async () => {
    await lib.json('POST', '/v1/group', { ID: fx.acme, Description: '', Meta: '{"budget":99}', Tags: [] });
    const { id } = await parseArchive(lib, archive);
    const r = await applyImport(lib, id, { guid_collision_policy: 'merge' });
    expect(r).toMatchObject({ merged_groups: 3, merged_resources: 4, merged_notes: 2, created_groups: 0 });
    const acme = await group(lib, fx.acme);
    expect(acme.Description).toBe('the **root**');
    expect(acme.Meta).toEqual({ budget: 99, nested: { a: [1, 2] } });
    expect(acme.Tags.map((t) => t.Name)).toEqual(['alpha']);
  });

  it('replace overwrites matched rows with the archive', async () => {
    await lib.json('POST', '/v1/group', { ID: fx.acme, Name: 'Renamed', Meta: '{"local":true}' });
    const { id } = await parseArchive(lib, archive);
    const r = await applyImport(lib, id, { guid_collision_policy: 'replace' });
    expect(r).toMatchObject({ linked_by_guid_groups: 3, merged_groups: 0, skipped_by_policy_groups: 0, created_groups: 0 });
    const acme = await group(lib, fx.acme);
    expect(acme).toMatchObject({ Name: 'Acme', Description: 'the **root**', Meta: { budget: 12, nested: { a: [1, 2] } } });
  });
});

describe('hash policies', () => {
  let noGuids: Buffer;
  beforeAll(async () => {
    // Resources without GUIDs are recognised by their bytes only.
    noGuids = await rewrite(archive, (name, v) => (name.startsWith('resources/') ? { ...v, guid: null } : v));
  });

  it('skip reuses the resource that already has the bytes', async () => {
    const before = await count(lib, '/v1/resources');
    const { id, plan } = await parseArchive(lib, noGuids);
    expect(plan.conflicts.resource_hash_matches).toBe(4);
    const r = await applyImport(lib, id, { resource_collision_policy: 'skip' });
    expect(r).toMatchObject({ skipped_by_hash: 4, created_resources: 0 });
    expect(await count(lib, '/v1/resources')).toBe(before);
  });

  it('duplicate makes new rows that share the stored file', async () => {
    const before = await count(lib, '/v1/resources');
    const { id } = await parseArchive(lib, noGuids);
    const r = await applyImport(lib, id, { resource_collision_policy: 'duplicate' });
    expect(r).toMatchObject({ skipped_by_hash: 0, created_resources: 4 });
    expect(await count(lib, '/v1/resources')).toBe(before + 4);
    const original = (await lib.json<{ Hash: string; Location: string }>('GET', `/v1/resource?id=${fx.logo}`)).body;
    const copies = (await lib.json<{ ID: number; Location: string }[]>('GET', `/v1/resources?Hash=${original.Hash}`)).body;
    expect(copies).toHaveLength(2);
    expect(new Set(copies.map((c) => c.Location))).toEqual(new Set([original.Location]));
  });
});

describe('shell groups, dangling references and the parent group', () => {
  it('maps shells and dangling references onto local rows and puts roots under the parent', async () => {
    const wide = (await exportArchive(lib, { rootGroupIds: [fx.acme], relatedDepth: 1 })).bytes;
    const host = (await bare.json<{ ID: number }>('POST', '/v1/group', { Name: 'Imports' })).body.ID;
    const theirs = (await bare.json<{ ID: number }>('POST', '/v1/group', { Name: 'Our outside' })).body.ID;
    const target = (await bare.json<{ ID: number }[]>('GET', '/v1/resources?Name=mine')).body[0].ID;
    const { id, plan } = await parseArchive(bare, wide);
    const shell = plan.items.find((i) => i.shell)!;
    expect(shell).toMatchObject({ name: 'Outside', export_id: 'g0004' });
    const stray = plan.dangling_refs.find((d) => d.kind === 'related_resource' && d.from_export_id === 'g0001')!;
    expect(stray.stub_name).toBe('stray.png');
    const r = await applyImport(bare, id, {
      parent_group_id: host,
      shell_group_actions: { g0004: { action: 'map_to_existing', destination_id: theirs } },
      dangling_actions: { [stray.id]: { action: 'map', destination_id: target } },
    });
    expect(r).toMatchObject({ mapped_shell_groups: 1, created_shell_groups: 0 });
    const acmeId = r.created_group_ids[0];
    const acme = (await bare.json<G & { RelatedGroups: { ID: number }[]; RelatedResources: { ID: number }[] }>('GET', `/v1/group?id=${acmeId}`)).body;
    expect(acme.Name).toBe('Acme');
    expect(acme.OwnerId).toBe(host);
    expect(acme.RelatedGroups.map((g) => g.ID)).toEqual([theirs]);
    expect(acme.RelatedResources.map((x) => x.ID)).toContain(target);
    expect((await bare.json<G[]>('GET', '/v1/groups?Name=Outside')).body.filter((g) => g.Name === 'Outside')).toEqual([]);
  });
});

describe('staged imports', () => {
  it('DELETE removes the staged archive and plan', async () => {
    const { id } = await parseArchive(lib, archive);
    const dir = join(lib.dir, 'files', '_imports', id);
    expect(existsSync(dir)).toBe(true);
    expect((await lib.fetch(`/files/_imports/${id}/plan.json`)).status).toBe(404);
    const del = await lib.fetch(`/v1/imports/${id}`, { method: 'DELETE', headers: { accept: 'application/json' } });
    expect(del.status).toBe(204);
    expect(existsSync(dir)).toBe(false);
    expect((await lib.json('GET', `/v1/imports/${id}/plan`)).status).toBe(404);
    expect((await lib.json('POST', `/v1/imports/${id}/apply`, {})).status).toBe(404);
    expect((await lib.fetch(`/v1/imports/${id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('answers 404 for a result before the apply, and for unknown imports', async () => {
    const { id } = await parseArchive(lib, archive);
    expect((await lib.json('GET', `/v1/imports/${id}/result`)).status).toBe(404);
    expect((await lib.json('GET', '/v1/imports/0123456789abcdef/plan')).status).toBe(404);
    expect((await lib.json('GET', '/v1/imports/..%2F..%2Fx/plan')).status).toBe(404);
    // The apply job id also finds the result.
    const applied = await lib.json<{ jobId: string }>('POST', `/v1/imports/${id}/apply`, {});
    await waitJob(lib, applied.body.jobId);
    expect((await lib.json('GET', `/v1/imports/${applied.body.jobId}/result`)).status).toBe(200);
  });
});
