// Mentions become links on save, additively (companion §12.2): note → tags, related groups,
// attached resources (description and every text block); group → tags, related notes,
// resources and groups; resource → tags, notes, groups. Missing ids link nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { png, upload } from '../../helpers/resources.js';

let lib: TestLibrary;
const id: Record<string, number> = {};
type Ref = { ID: number };
const ids = (list: Ref[] | null | undefined) => (list ?? []).map((x) => x.ID).sort((a, b) => a - b);

beforeAll(async () => {
  lib = await startTestLibrary(['-hash-worker-disabled']);
  for (const name of ['beach', 'hike']) id[`tag ${name}`] = (await lib.json<Ref>('POST', '/v1/tag', { Name: name })).body.ID;
  for (const name of ['Trips', 'Family']) id[`group ${name}`] = (await lib.json<Ref>('POST', '/v1/group', { Name: name })).body.ID;
  const r = await upload(lib, [{ name: 'pier.png', data: await png(40, 30, 5), type: 'image/png' }]);
  id.resource = r.body[0].ID;
});
afterAll(async () => lib?.close());

describe('mentions become links on save', () => {
  it('links a note to what its description and text blocks mention, and keeps links when mentions go', async () => {
    const text = `Went to @[group:${id['group Trips']}:Trips] with @[tag:${id['tag beach']}:beach] — photo @[resource:${id.resource}:pier.png], and @[tag:999999:gone]`;
    const created = await lib.json<Ref>('POST', '/v1/note', { Name: 'Summer', Description: text });
    expect(created.status).toBe(200);
    const noteId = created.body.ID;
    type Note = { Tags: Ref[]; Groups: Ref[]; Resources: Ref[] };
    let note = (await lib.json<Note>('GET', `/v1/note?id=${noteId}`)).body;
    expect(ids(note.Tags)).toEqual([id['tag beach']]);
    expect(ids(note.Groups)).toEqual([id['group Trips']]);
    expect(ids(note.Resources)).toEqual([id.resource]);

    // A second text block's mention links too.
    const block = await lib.json('POST', '/v1/note/block', { noteId, type: 'text', content: { text: `and @[tag:${id['tag hike']}:hike]` } });
    expect(block.status).toBeLessThan(300);
    note = (await lib.json<Note>('GET', `/v1/note?id=${noteId}`)).body;
    expect(ids(note.Tags)).toEqual([id['tag beach'], id['tag hike']].sort((a, b) => a - b));

    // Removing every mention keeps the links (additive).
    expect((await lib.json('POST', '/v1/note', { ID: noteId, Name: 'Summer', Description: 'plain now' })).status).toBe(200);
    note = (await lib.json<Note>('GET', `/v1/note?id=${noteId}`)).body;
    expect(ids(note.Groups)).toEqual([id['group Trips']]);
    expect(ids(note.Resources)).toEqual([id.resource]);
  });

  it('links a group to mentioned notes, resources, tags and other groups, never to itself', async () => {
    const note = (await lib.json<Ref>('POST', '/v1/note', { Name: 'Plan' })).body.ID;
    const g = id['group Family'];
    const desc = `See @[note:${note}:Plan], @[resource:${id.resource}:pier], @[tag:${id['tag hike']}:hike], @[group:${id['group Trips']}:Trips] and @[group:${g}:Family]`;
    expect((await lib.json('POST', `/v1/group/editDescription?id=${g}`, { Description: desc })).status).toBe(200);
    type Group = { Tags: Ref[]; RelatedNotes: Ref[]; RelatedResources: Ref[]; RelatedGroups: Ref[] };
    const group = (await lib.json<Group>('GET', `/v1/group?id=${g}`)).body;
    expect(ids(group.RelatedNotes)).toEqual([note]);
    expect(ids(group.RelatedResources)).toEqual([id.resource]);
    expect(ids(group.Tags)).toEqual([id['tag hike']]);
    expect(ids(group.RelatedGroups)).toEqual([id['group Trips']]);
  });

  it('links a resource to mentioned groups and notes', async () => {
    const note = (await lib.json<Ref>('POST', '/v1/note', { Name: 'Album' })).body.ID;
    const desc = `In @[group:${id['group Family']}:Family], see @[note:${note}:Album]`;
    expect((await lib.json('POST', `/v1/resource/editDescription?id=${id.resource}`, { Description: desc })).status).toBe(200);
    type Res = { Groups: Ref[]; Notes: Ref[] };
    const res = (await lib.json<Res>('GET', `/v1/resource?id=${id.resource}`)).body;
    expect(ids(res.Groups)).toContain(id['group Family']);
    expect(ids(res.Notes)).toContain(note);
  });
});
