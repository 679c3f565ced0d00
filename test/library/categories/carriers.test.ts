// Categories, resource categories and note types: one set of rules, three sets of paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { png, upload } from '../../helpers/resources.js';

type Rec = Record<string, unknown> & { ID: number; Name: string; Description: string; SectionConfig: string; MetaSchema: string };

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary();
});
afterAll(async () => lib?.close());

const kinds = [
  { name: 'category', list: '/v1/categories', create: '/v1/category', update: '/v1/category', del: '/v1/category/delete', inline: '/v1/category', page: '/category', listPage: '/categories', unique: true, deleteReply: 'id', extra: ['CustomOwnEntities'], timeline: '/v1/categories/timeline' },
  { name: 'resource category', list: '/v1/resourceCategories', create: '/v1/resourceCategory', update: '/v1/resourceCategory', del: '/v1/resourceCategory/delete', inline: '/v1/resourceCategory', page: '/resourceCategory', listPage: '/resourceCategories', unique: true, deleteReply: 'id', extra: ['CustomPreview', 'CustomLightbox', 'CustomCell', 'AutoDetectRules'] },
  { name: 'note type', list: '/v1/note/noteTypes', create: '/v1/note/noteType', update: '/v1/note/noteType/edit', del: '/v1/note/noteType/delete', inline: '/v1/noteType', page: '/noteType', listPage: '/noteTypes', unique: false, deleteReply: 'stub', extra: ['ApplyTemplatesToShares'] },
] as const;

const SHARED = ['CustomHeader', 'CustomSidebar', 'CustomSummary', 'CustomAvatar', 'CustomListHeader', 'CustomDetailFooter', 'CustomListFooter', 'CustomHoverCard', 'CustomMRQLResult', 'CustomCSS'];

describe.each(kinds)('$name', (k) => {
  const prefix = k.name.replace(/ /g, '-');

  async function create(body: Record<string, unknown>): Promise<Rec> {
    const r = await lib.json<Rec>('POST', k.create, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  }

  it('creates with every field, in the contract casing', async () => {
    const body: Record<string, unknown> = { Name: `${prefix}-full`, Description: 'd', MetaSchema: '{"type":"object"}', SectionConfig: '{"tags": false}' };
    for (const s of SHARED) body[s] = `<b>${s}</b>`;
    // AutoDetectRules are validated on save (companion §3.10), so they get a valid rule set.
    const value = (e: string) => (e === 'ApplyTemplatesToShares' ? true : e === 'AutoDetectRules' ? '{"contentTypes":["image/png"]}' : `${e} text`);
    for (const e of k.extra) body[e] = value(e);
    const rec = await create(body);
    expect(rec).toMatchObject({ Name: `${prefix}-full`, Description: 'd', MetaSchema: '{"type":"object"}', SectionConfig: '{"tags":false}' });
    for (const s of SHARED) expect(rec[s]).toBe(`<b>${s}</b>`);
    for (const e of k.extra) expect(rec[e]).toBe(value(e));
    expect(typeof rec.CreatedAt).toBe('string');
  });

  it('accepts sectionConfig in any casing and keeps omitted fields on update', async () => {
    const rec = await create({ Name: `${prefix}-partial`, sectionconfig: '{"a":1}', CustomHeader: 'h', Description: 'keep' });
    expect(rec.SectionConfig).toBe('{"a":1}');
    const upd = await lib.json<Rec>('POST', k.update, { ID: rec.ID, CustomSidebar: 's', SectionConfig: '' });
    expect(upd.body).toMatchObject({ Name: `${prefix}-partial`, Description: 'keep', CustomHeader: 'h', CustomSidebar: 's', SectionConfig: '{"a":1}' });
  });

  it('refuses invalid MetaSchema and SectionConfig with 400, changing nothing', async () => {
    const rec = await create({ Name: `${prefix}-valid` });
    const notJson = await lib.json<{ error: string }>('POST', k.update, { ID: rec.ID, MetaSchema: '{nope' });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toMatch(/^meta JSON schema is not valid JSON/);
    const notSchema = await lib.json<{ error: string }>('POST', k.update, { ID: rec.ID, MetaSchema: '{"type": 12}' });
    expect(notSchema.status).toBe(400);
    expect(notSchema.body.error).toMatch(/^meta JSON schema is not a valid JSON Schema/);
    expect((await lib.json('POST', k.update, { ID: rec.ID, SectionConfig: '[1,2]' })).status).toBe(400);
    expect((await lib.json('POST', k.update, { ID: rec.ID, SectionConfig: 'x' })).status).toBe(400);
    const draft7 = await lib.json<Rec>('POST', k.update, { ID: rec.ID, MetaSchema: '{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}' });
    expect(draft7.status).toBe(200);
    const cleared = await lib.json<Rec>('POST', k.update, { ID: rec.ID, MetaSchema: '  ' });
    expect(cleared.body.MetaSchema).toBe('');
    expect((await lib.json('POST', k.create, { Name: '' })).status).toBe(400);
  });

  it(k.unique ? 'refuses a duplicate name with 409, inline renames included' : 'allows duplicate names', async () => {
    await create({ Name: `${prefix}-dupe` });
    const again = await lib.json<Rec>('POST', k.create, { Name: `${prefix}-dupe` });
    expect(again.status).toBe(k.unique ? 409 : 200);
    const other = await create({ Name: `${prefix}-dupe-other` });
    const renamed = await lib.json<{ error: string }>('POST', `${k.inline}/editName?id=${other.ID}`, { Name: `${prefix}-dupe` });
    expect(renamed.status).toBe(k.unique ? 409 : 200);
    if (k.unique) expect(renamed.body.error).toBe(`a ${k.name} named "${prefix}-dupe" already exists`);
  });

  it('lists with filters, paging headers and SortBy', async () => {
    await create({ Name: `${prefix}-list-b`, Description: 'needle' });
    await create({ Name: `${prefix}-list-a` });
    const r = await lib.json<Rec[]>('GET', `${k.list}?Name=${prefix}-list&SortBy=name`);
    expect(r.body.map((x) => x.Name)).toEqual([`${prefix}-list-a`, `${prefix}-list-b`]);
    expect(r.headers.get('x-per-page')).toBe('50');
    expect((await lib.json<Rec[]>('GET', `${k.list}?Description=NEEDLE&Name=${prefix}`)).body.map((x) => x.Name)).toEqual([`${prefix}-list-b`]);
    expect((await lib.json('GET', `${k.list}?SortBy=secret`)).status).toBe(400);
  });

  it('edits name and description inline', async () => {
    const rec = await create({ Name: `${prefix}-inline` });
    expect((await lib.json('POST', `${k.inline}/editName?id=${rec.ID}`, { Name: `${prefix}-inline2` })).body).toEqual({ ok: true, id: rec.ID });
    await lib.json('POST', `${k.inline}/editDescription?id=${rec.ID}`, { Description: 'desc' });
    const r = await lib.json<Rec[]>('GET', `${k.list}?Name=${prefix}-inline2`);
    expect(r.body[0]).toMatchObject({ Name: `${prefix}-inline2`, Description: 'desc' });
    expect((await lib.json('POST', `${k.inline}/editName?id=${rec.ID}`, { Name: ' ' })).status).toBe(400);
  });

  it('deletes, answering the contract reply and redirecting browsers', async () => {
    const rec = await create({ Name: `${prefix}-delete` });
    const r = await lib.json('POST', `${k.del}?Id=${rec.ID}`);
    expect(r.body).toEqual(k.deleteReply === 'id' ? { id: rec.ID } : { ID: rec.ID });
    expect((await lib.json('POST', `${k.del}?Id=${rec.ID}`)).status).toBe(404);
    const other = await create({ Name: `${prefix}-delete-html` });
    const html = await lib.fetch(`${k.del}?Id=${other.ID}`, { method: 'POST', headers: { accept: 'text/html' } });
    expect(html.status).toBe(303);
    expect(html.headers.get('location')).toBe(k.listPage);
    const logs = await lib.json<{ logs: { action: string }[] }>('GET', `/v1/logs?EntityID=${rec.ID}&EntityType=${k.name.replace(/ /g, '_')}`);
    expect(logs.body.logs.map((l) => l.action)).toEqual(['delete', 'create']);
  });

  it('answers 303 to the detail page after a browser create', async () => {
    const r = await lib.form(k.create, [['Name', `${prefix}-browser`]], { accept: 'text/html' });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toMatch(new RegExp(`^${k.page}\\?id=\\d+$`));
  });

  it('renders its pages as HTML and JSON', async () => {
    const rec = await create({ Name: `${prefix}-page <i>`, CustomHeader: 'x' });
    for (const path of [k.listPage, `${k.page}?id=${rec.ID}`, `${k.page}/new`, `${k.page}/edit?id=${rec.ID}`]) {
      const r = await lib.fetch(path, { headers: { accept: 'text/html' } });
      expect(r.status, path).toBe(200);
      const html = await r.text();
      expect(html).not.toContain('<i>');
    }
    const json = await lib.json<{ mainEntity: Rec; summary: { slotsSet: string[]; schema: string } }>('GET', `${k.page}.json?id=${rec.ID}`);
    expect(json.body.mainEntity.Name).toBe(`${prefix}-page <i>`);
    expect(json.body.summary).toMatchObject({ slotsSet: ['CustomHeader'], schema: 'None' });
  });
});

describe('carrier deletion semantics', () => {
  it('never deletes the Default resource category and moves resources back to it', async () => {
    const def = (await lib.json<Rec[]>('GET', '/v1/resourceCategories?Name=Default')).body.find((r) => r.Name === 'Default')!;
    const refused = await lib.json<{ error: string }>('POST', `/v1/resourceCategory/delete?Id=${def.ID}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('cannot delete the default resource category');
    const photos = (await lib.json<Rec>('POST', '/v1/resourceCategory', { Name: 'Photos' })).body;
    const up = await upload(lib, [{ name: 'pic.png', data: await png(16, 16, 1), type: 'image/png' }], { ResourceCategoryId: photos.ID });
    const id = (up.body as { ID: number }[])[0].ID;
    const categoryOf = async () => (await lib.json<{ resourceCategoryId: number }>('GET', `/v1/resource?id=${id}`)).body.resourceCategoryId;
    expect(await categoryOf()).toBe(photos.ID);
    await lib.json('POST', `/v1/resourceCategory/delete?Id=${photos.ID}`);
    expect(await categoryOf()).toBe(def.ID);
  });

  it('deleting a category clears its groups and removes its relation types with their relations', async () => {
    const a = (await lib.json<Rec>('POST', '/v1/category', { Name: 'Doomed' })).body;
    const b = (await lib.json<Rec>('POST', '/v1/category', { Name: 'Survivor' })).body;
    const g1 = (await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'g-doomed', CategoryId: a.ID })).body;
    const g2 = (await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'g-survivor', CategoryId: b.ID })).body;
    const rt = (await lib.json<{ ID: number; BackRelationId: number }>('POST', '/v1/relationType', { Name: 'r', ReverseName: 'back', FromCategory: a.ID, ToCategory: b.ID })).body;
    const kept = (await lib.json<{ ID: number }>('POST', '/v1/relationType', { Name: 'peer', FromCategory: b.ID, ToCategory: b.ID })).body;
    expect((await lib.json('POST', '/v1/relation', { FromGroupId: g1.ID, ToGroupId: g2.ID, GroupRelationTypeId: rt.ID })).status).toBe(200);
    type Read = { CategoryId: number | null; Relationships: unknown[]; BackRelations: unknown[] };
    const read = async () => (await lib.json<Read>('GET', `/v1/group?id=${g1.ID}`)).body;
    expect(await read()).toMatchObject({ Relationships: [{ GroupRelationTypeId: rt.ID }], BackRelations: [{ GroupRelationTypeId: rt.BackRelationId }] });

    expect((await lib.json('POST', `/v1/category/delete?Id=${a.ID}`)).body).toEqual({ id: a.ID });
    expect(await read()).toMatchObject({ CategoryId: null, Relationships: [], BackRelations: [] });
    expect((await lib.json('GET', `/v1/relationType?id=${rt.ID}`)).status).toBe(404);
    expect((await lib.json('GET', `/v1/relationType?id=${rt.BackRelationId}`)).status).toBe(404);
    expect((await lib.json('GET', `/v1/relationType?id=${kept.ID}`)).status).toBe(200);
  });

  it('deleting a note type leaves its notes without a type', async () => {
    const t = (await lib.json<Rec>('POST', '/v1/note/noteType', { Name: 'Journal' })).body;
    const n = (await lib.json<{ ID: number; NoteTypeId: number | null }>('POST', '/v1/note', { Name: 'entry', NoteTypeId: t.ID })).body;
    expect(n.NoteTypeId).toBe(t.ID);
    await lib.json('POST', `/v1/note/noteType/delete?Id=${t.ID}`);
    expect((await lib.json<{ NoteTypeId: number | null }>('GET', `/v1/note?id=${n.ID}`)).body.NoteTypeId).toBeNull();
  });

  it('requires ID on the note type edit route', async () => {
    expect((await lib.json('POST', '/v1/note/noteType/edit', { Name: 'x' })).status).toBe(400);
  });

  it('counts categories on its timeline', async () => {
    const r = await lib.json<{ buckets: { created: number }[] }>('GET', '/v1/categories/timeline?granularity=yearly&columns=1&Name=Survivor');
    expect(r.body.buckets[0].created).toBe(1);
  });
});
