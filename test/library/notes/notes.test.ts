// Notes over HTTP: create, read, the partial-update rule, every list filter, bulk operations,
// inline edits, the description mirror of the first text block, timeline and pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { png } from '../../helpers/resources.js';
import { uploadResource } from '../../helpers/uploads.js';

type Note = {
  ID: number;
  Name: string;
  Description: string;
  Meta: Record<string, unknown>;
  OwnerId: number | null;
  NoteTypeId: number | null;
  StartDate: string | null;
  EndDate: string | null;
  shareToken: string | null;
  hasShare: boolean;
  Tags: { ID: number; Name: string }[];
  Groups: { ID: number; Name: string }[] | null;
  Resources: { ID: number; Name: string }[] | null;
  Owner: { ID: number; Name: string } | null;
  NoteType: { ID: number; Name: string } | null;
  CreatedAt: string;
  UpdatedAt: string;
};

let lib: TestLibrary;
beforeAll(async () => {
  // A share server, so the Shared filter can be tried on a note shared through the API.
  lib = await startTestLibrary(['-share-port', '0', '-share-bind-address', '127.0.0.1']);
});
afterAll(async () => lib?.close());

async function note(body: Record<string, unknown>): Promise<Note> {
  const r = await lib.json<Note>('POST', '/v1/note', body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

async function tag(name: string): Promise<number> {
  return (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: name })).body.ID;
}

async function group(name: string): Promise<number> {
  return (await lib.json<{ ID: number }>('POST', '/v1/group', { Name: name })).body.ID;
}

async function noteType(body: Record<string, unknown>): Promise<number> {
  const r = await lib.json<{ ID: number }>('POST', '/v1/note/noteType', body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.ID;
}

/** Resources are another feature; they arrive through its upload API. */
async function resource(name: string, data?: Buffer): Promise<number> {
  return (await uploadResource(lib, name, data)).ID;
}

async function names(query: string): Promise<string[]> {
  const r = await lib.json<Note[]>('GET', `/v1/notes?${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.map((n) => n.Name).sort();
}

describe('notes: create and read', () => {
  it('creates with every field and reads every association back', async () => {
    const t = await tag('n-tag');
    const g = await group('n-group');
    const owner = await group('n-owner');
    const type = await noteType({ Name: 'Meeting' });
    const r = await resource('n-res.txt');
    const n = await note({
      Name: 'Kick-off',
      Description: 'agenda',
      OwnerId: owner,
      NoteTypeId: type,
      Tags: [t],
      Groups: [g],
      Resources: [r],
      Meta: '{"room": "A1"}',
      StartDate: '2024-05-01T09:30',
      EndDate: '2024-05-01T11:00',
    });
    expect(n).toMatchObject({
      Name: 'Kick-off',
      Description: 'agenda',
      OwnerId: owner,
      NoteTypeId: type,
      Meta: { room: 'A1' },
      StartDate: '2024-05-01T09:30:00.000Z',
      EndDate: '2024-05-01T11:00:00.000Z',
      shareToken: null,
      hasShare: false,
    });
    expect(n.Tags.map((x) => x.Name)).toEqual(['n-tag']);
    expect(n.Groups!.map((x) => x.Name)).toEqual(['n-group']);
    expect(n.Resources!.map((x) => x.Name)).toEqual(['n-res.txt']);
    expect(n.Owner?.Name).toBe('n-owner');
    expect(n.NoteType?.Name).toBe('Meeting');
    const read = await lib.json<Note>('GET', `/v1/note?id=${n.ID}`);
    expect(read.body).toEqual(n);
    // The list preloads Tags and NoteType only.
    const listed = (await lib.json<Note[]>('GET', `/v1/notes?Ids=${n.ID}`)).body[0];
    expect(listed.Tags.map((x) => x.Name)).toEqual(['n-tag']);
    expect(listed.NoteType?.Name).toBe('Meeting');
    expect(listed.Groups).toBeNull();
    expect(listed.Resources).toBeNull();
  });

  it('accepts form posts and answers browsers with 303 to the note', async () => {
    const res = await lib.form('/v1/note', [['Name', 'From a form'], ['StartDate', '2024-06-01T08:00']], { accept: 'text/html' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/note\?id=\d+$/);
  });

  it('refuses bad input with 400 or 404 and changes nothing', async () => {
    const before = (await lib.json<Note[]>('GET', '/v1/notes')).body.length;
    const bad: [Record<string, unknown>, number, RegExp][] = [
      [{ Name: '  ' }, 400, /Name must not be empty/],
      [{ Description: 'no name' }, 400, /Name/],
      [{ Name: 'x', StartDate: 'tomorrow' }, 400, /StartDate is not a valid date/],
      [{ Name: 'x', StartDate: '2024-02-30T10:00' }, 400, /StartDate/],
      [{ Name: 'x', EndDate: '2024-13-01T10:00' }, 400, /EndDate/],
      [{ Name: 'x', StartDate: '2024-05-02T10:00', EndDate: '2024-05-01T10:00' }, 400, /EndDate must not be before StartDate/],
      [{ Name: 'x', Meta: '[1]' }, 400, /Meta must be a JSON object/],
      [{ Name: 'x', Meta: '{bad' }, 400, /Meta is not valid JSON/],
      [{ Name: 'x', Tags: [999999] }, 404, /tag 999999 not found/],
      [{ Name: 'x', Groups: [999999] }, 404, /group 999999 not found/],
      [{ Name: 'x', Resources: [999999] }, 404, /resource 999999 not found/],
      [{ Name: 'x', OwnerId: 999999 }, 404, /owner group 999999/],
      [{ Name: 'x', NoteTypeId: 999999 }, 404, /note type 999999/],
      [{ ID: 999999, Name: 'x' }, 404, /note 999999 not found/],
    ];
    for (const [body, status, message] of bad) {
      const r = await lib.json<{ error: string }>('POST', '/v1/note', body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error).toMatch(message);
    }
    expect((await lib.json<Note[]>('GET', '/v1/notes')).body.length).toBe(before);
  });

  it("checks meta against the note type's MetaSchema", async () => {
    const type = await noteType({ Name: 'Strict', MetaSchema: '{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}' });
    const bad = await lib.json<{ error: string; errors: unknown[] }>('POST', '/v1/note', { Name: 'strict', NoteTypeId: type, Meta: '{"n": "x"}' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.length).toBeGreaterThan(0);
    const ok = await note({ Name: 'strict', NoteTypeId: type, Meta: '{"n": 3}' });
    // Changing only the name does not re-validate; changing the type to one the meta fails does.
    const loose = await note({ Name: 'loose' });
    expect((await lib.json('POST', '/v1/note', { ID: loose.ID, NoteTypeId: type })).status).toBe(400);
    expect((await lib.json('POST', '/v1/note', { ID: ok.ID, Name: 'renamed strict' })).status).toBe(200);
  });
});

describe('notes: partial update', () => {
  it('keeps omitted fields, absent arrays and dates; explicit empties clear', async () => {
    const [t1, t2] = [await tag('pu-1'), await tag('pu-2')];
    const g = await group('pu-group');
    const owner = await group('pu-owner');
    const type = await noteType({ Name: 'pu-type' });
    const r = await resource('pu-res');
    const n = await note({ Name: 'pu', Description: 'body', Tags: [t1, t2], Groups: [g], Resources: [r], OwnerId: owner, NoteTypeId: type, Meta: '{"a":1}', StartDate: '2024-01-01T10:00', EndDate: '2024-01-02T10:00' });

    const renamed = await note({ ID: n.ID, Name: 'pu renamed' });
    expect(renamed).toMatchObject({ Name: 'pu renamed', Description: 'body', OwnerId: owner, NoteTypeId: type, Meta: { a: 1 }, StartDate: n.StartDate, EndDate: n.EndDate });
    expect(renamed.Tags.map((x) => x.ID).sort()).toEqual([t1, t2].sort());
    expect(renamed.Groups!.map((x) => x.ID)).toEqual([g]);
    expect(renamed.Resources!.map((x) => x.ID)).toEqual([r]);

    const tagsCleared = await note({ ID: n.ID, Tags: [] });
    expect(tagsCleared.Tags).toEqual([]);
    expect(tagsCleared.Groups!.map((x) => x.ID)).toEqual([g]);
    expect(tagsCleared.Resources!.map((x) => x.ID)).toEqual([r]);

    const replaced = await note({ ID: n.ID, Tags: [t2], Groups: [], Resources: [] });
    expect(replaced.Tags.map((x) => x.ID)).toEqual([t2]);
    expect(replaced.Groups).toEqual([]);
    expect(replaced.Resources).toEqual([]);

    const emptied = await note({ ID: n.ID, Description: '', StartDate: '', EndDate: '' });
    expect(emptied).toMatchObject({ Description: '', StartDate: null, EndDate: null, Name: 'pu renamed', Meta: { a: 1 } });

    const unowned = await note({ ID: n.ID, OwnerId: 0, NoteTypeId: 0 });
    expect(unowned).toMatchObject({ OwnerId: null, NoteTypeId: null, Owner: null, NoteType: null });
    expect(unowned.Tags.map((x) => x.ID)).toEqual([t2]);
  });

  it('applies the same rule to form posts: an empty list field clears, a missing one keeps', async () => {
    const t = await tag('pf-1');
    const n = await note({ Name: 'pf', Tags: [t], Description: 'kept' });
    let res = await lib.form('/v1/note', [['ID', n.ID], ['Name', 'pf2']]);
    expect(res.status).toBe(200);
    let after = (await lib.json<Note>('GET', `/v1/note?id=${n.ID}`)).body;
    expect(after.Tags.map((x) => x.ID)).toEqual([t]);
    expect(after.Description).toBe('kept');
    res = await lib.form('/v1/note', [['ID', n.ID], ['Tags', ''], ['Description', '']]);
    expect(res.status).toBe(200);
    after = (await lib.json<Note>('GET', `/v1/note?id=${n.ID}`)).body;
    expect(after.Tags).toEqual([]);
    expect(after.Description).toBe('');
    expect(after.Name).toBe('pf2');
  });
});

describe('notes: list filters', () => {
  let a: Note, b: Note, c: Note;
  let tagA: number, tagB: number, g1: number, g2: number, typeX: number, typeY: number;
  beforeAll(async () => {
    tagA = await tag('f-a');
    tagB = await tag('f-b');
    g1 = await group('f-g1');
    g2 = await group('f-g2');
    typeX = await noteType({ Name: 'f-x' });
    typeY = await noteType({ Name: 'f-y' });
    a = await note({ Name: 'filter alpha', Description: 'Needle here', Tags: [tagA, tagB], Groups: [g1], OwnerId: g2, NoteTypeId: typeX, Meta: '{"score": 5, "kind": "big"}', StartDate: '2024-03-01T10:00', EndDate: '2024-03-05T10:00' });
    b = await note({ Name: 'filter beta', Description: 'nothing', Tags: [tagA], Groups: [g2], NoteTypeId: typeY, Meta: '{"score": 2}', StartDate: '2024-04-01T10:00', EndDate: '2024-04-10T18:00' });
    c = await note({ Name: 'filter gamma 100%', Description: 'needle_x', Meta: '{"kind": "small"}' });
    expect((await lib.json('POST', `/v1/note/share?noteId=${b.ID}`)).status).toBe(200);
  });

  const scoped = (q: string) => names(`Name=filter&${q}`);

  it('filters by name, description, owner, ids and note types', async () => {
    expect(await names('Name=FILTER%20a')).toEqual(['filter alpha']);
    expect(await names('Name=100%25')).toEqual(['filter gamma 100%']);
    expect(await scoped('Description=needle')).toEqual(['filter alpha', 'filter gamma 100%']);
    expect(await scoped('Description=needle_')).toEqual(['filter gamma 100%']);
    expect(await scoped(`OwnerId=${g2}`)).toEqual(['filter alpha']);
    expect(await scoped(`Ids=${a.ID}&Ids=${c.ID}`)).toEqual(['filter alpha', 'filter gamma 100%']);
    expect(await scoped(`Ids=${a.ID},${b.ID}`)).toEqual(['filter alpha', 'filter beta']);
    expect(await scoped(`NoteTypeId=${typeY}`)).toEqual(['filter beta']);
    expect(await scoped(`NoteTypeIds=${typeX}&NoteTypeIds=${typeY}`)).toEqual(['filter alpha', 'filter beta']);
  });

  it('needs all listed tags, and each listed group as owner or related group', async () => {
    expect(await scoped(`Tags=${tagA}`)).toEqual(['filter alpha', 'filter beta']);
    expect(await scoped(`Tags=${tagA}&Tags=${tagB}`)).toEqual(['filter alpha']);
    expect(await scoped(`Groups=${g2}`)).toEqual(['filter alpha', 'filter beta']);
    expect(await scoped(`Groups=${g1}&Groups=${g2}`)).toEqual(['filter alpha']);
  });

  it('bounds start and end dates inclusively and refuses bad dates', async () => {
    expect(await scoped('StartDateAfter=2024-03-01')).toEqual(['filter alpha', 'filter beta']);
    expect(await scoped('StartDateAfter=2024-03-02')).toEqual(['filter beta']);
    expect(await scoped('StartDateBefore=2024-03-01T10:00:00Z')).toEqual(['filter alpha']);
    expect(await scoped('StartDateBefore=2024-03-01')).toEqual([]);
    expect(await scoped('EndDateAfter=2024-04-10')).toEqual(['filter beta']);
    expect(await scoped('EndDateBefore=2024-04-10')).toEqual(['filter alpha']);
    expect(await scoped('EndDateBefore=2024-04-10T18:00:00Z')).toEqual(['filter alpha', 'filter beta']);
    expect(await scoped('StartDateAfter=2024-03-15&EndDateBefore=2024-04-30')).toEqual(['filter beta']);
    for (const q of ['StartDateAfter=yesterday', 'StartDateBefore=2024-02-30', 'EndDateAfter=2024/01/01', 'EndDateBefore=x']) {
      const r = await lib.json<{ error: string }>('GET', `/v1/notes?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error).toMatch(/is not a valid date \(expected YYYY-MM-DD or RFC 3339\)/);
    }
  });

  it('bounds created and updated dates', async () => {
    const past = '2000-01-01';
    const future = '2999-01-01';
    expect(await scoped(`CreatedAfter=${past}&CreatedBefore=${future}`)).toHaveLength(3);
    expect(await scoped(`CreatedBefore=${past}`)).toEqual([]);
    expect(await scoped(`UpdatedAfter=${future}`)).toEqual([]);
    expect(await scoped(`UpdatedBefore=${future}`)).toHaveLength(3);
  });

  it('has a tri-state Shared filter', async () => {
    expect(await scoped('')).toEqual(['filter alpha', 'filter beta', 'filter gamma 100%']);
    expect(await scoped('Shared=1')).toEqual(['filter beta']);
    expect(await scoped('Shared=true')).toEqual(['filter beta']);
    expect(await scoped('Shared=0')).toEqual(['filter alpha', 'filter gamma 100%']);
    expect(await scoped('Shared=false')).toEqual(['filter alpha', 'filter gamma 100%']);
    expect(await scoped('Shared=')).toEqual(['filter alpha', 'filter beta', 'filter gamma 100%']);
    expect((await lib.json('GET', '/v1/notes?Shared=maybe')).status).toBe(400);
  });

  it('filters by MetaQuery and sorts by columns and meta', async () => {
    expect(await scoped('MetaQuery=kind:big')).toEqual(['filter alpha']);
    expect(await scoped('MetaQuery=score:GT:3')).toEqual(['filter alpha']);
    expect(await scoped('MetaQuery=score:GE:2&MetaQuery=kind:EQ:big')).toEqual(['filter alpha']);
    const byName = (await lib.json<Note[]>('GET', '/v1/notes?Name=filter&SortBy=name%20desc')).body.map((n) => n.Name);
    expect(byName).toEqual(['filter gamma 100%', 'filter beta', 'filter alpha']);
    const byScore = (await lib.json<Note[]>('GET', "/v1/notes?Name=filter&SortBy=meta->>'score'%20asc")).body.map((n) => n.Name);
    expect(byScore).toEqual(['filter beta', 'filter alpha', 'filter gamma 100%']);
    const byStart = (await lib.json<Note[]>('GET', '/v1/notes?Name=filter&SortBy=start_date%20desc')).body.map((n) => n.Name);
    expect(byStart).toEqual(['filter beta', 'filter alpha', 'filter gamma 100%']);
    expect((await lib.json('GET', '/v1/notes?SortBy=nope')).status).toBe(400);
    expect((await lib.json('GET', '/v1/notes?SortBy=name;drop')).status).toBe(400);
  });

  it('filters by an MRQL expression and refuses a bad one with 400', async () => {
    const r = await lib.json<Note[]>('GET', `/v1/notes?MRQL=${encodeURIComponent('name ~ "filter*"')}&SortBy=name`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.map((n) => n.Name)).toEqual(['filter alpha', 'filter beta', 'filter gamma 100%']);
    expect((await lib.json('GET', `/v1/notes?MRQL=${encodeURIComponent('name ~ ')}`)).status).toBe(400);
    expect((await lib.json('GET', '/v1/notes?MRQL=')).status).toBe(200);
  });

  it('pages in SQL with page headers, and answers the timeline', async () => {
    const r = await lib.json<Note[]>('GET', '/v1/notes?Name=filter&page=2');
    expect(r.body).toEqual([]);
    expect(r.headers.get('x-page')).toBe('2');
    expect(r.headers.get('x-per-page')).toBe('50');
    const t = await lib.json<Record<string, unknown>>('GET', '/v1/notes/timeline?Name=filter&granularity=yearly&columns=3');
    expect(t.status).toBe(200);
  });
});

describe('notes: delete, bulk operations and inline edits', () => {
  it('deletes one note with its blocks and links', async () => {
    const t = await tag('del-t');
    await tag('del-kept');
    const n = await note({ Name: 'to delete', Tags: [t] });
    const block = await lib.json<{ id: number }>('POST', '/v1/note/block', { noteId: n.ID, type: 'text', content: { text: 'x' } });
    const usage = async () => (await lib.json<{ Name: string }[]>('GET', `/v1/tags?Name=del-&SortBy=most_used_note%20desc`)).body.map((x) => x.Name);
    expect(await usage()).toEqual(['del-t', 'del-kept']);
    const r = await lib.json<{ id: number }>('POST', `/v1/note/delete?Id=${n.ID}`);
    expect(r).toMatchObject({ status: 200, body: { id: n.ID } });
    expect((await lib.json('GET', `/v1/note?id=${n.ID}`)).status).toBe(404);
    expect((await lib.json('GET', `/v1/note/block?id=${block.body.id}`)).status).toBe(404);
    // The deleted note's tag link went with it: both tags are unused, so the newer comes first.
    expect(await usage()).toEqual(['del-kept', 'del-t']);
    const browser = await lib.fetch(`/v1/note/delete?Id=${(await note({ Name: 'again' })).ID}`, { method: 'POST', headers: { accept: 'text/html' } });
    expect(browser.status).toBe(303);
    expect(browser.headers.get('location')).toBe('/notes');
  });

  it('adds and removes tags, adds groups and meta, deletes in bulk', async () => {
    const [t1, t2] = [await tag('bulk-1'), await tag('bulk-2')];
    const g = await group('bulk-g');
    const n1 = await note({ Name: 'bulk one', Meta: '{"keep": true}' });
    const n2 = await note({ Name: 'bulk two' });
    const ids = [n1.ID, n2.ID];
    expect((await lib.json('POST', '/v1/notes/addTags', { ID: ids, EditedId: [t1, t2] })).body).toEqual({ ok: true });
    expect((await lib.json<Note>('GET', `/v1/note?id=${n2.ID}`)).body.Tags.map((t) => t.ID).sort()).toEqual([t1, t2].sort());
    // Adding again does not duplicate.
    expect((await lib.json('POST', '/v1/notes/addTags', { ID: ids, EditedId: [t1] })).status).toBe(200);
    await lib.json('POST', '/v1/notes/removeTags', { ID: ids, EditedId: [t1] });
    expect((await lib.json<Note>('GET', `/v1/note?id=${n1.ID}`)).body.Tags.map((t) => t.ID)).toEqual([t2]);
    await lib.json('POST', '/v1/notes/addGroups', { ID: ids, EditedId: [g] });
    expect((await lib.json<Note>('GET', `/v1/note?id=${n1.ID}`)).body.Groups!.map((x) => x.ID)).toEqual([g]);
    const form = await lib.form('/v1/notes/addMeta', [['ID', n1.ID], ['ID', n2.ID], ['Meta', '{"added": 1}']], { accept: 'text/html' });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/notes');
    expect((await lib.json<Note>('GET', `/v1/note?id=${n1.ID}`)).body.Meta).toEqual({ keep: true, added: 1 });
    expect((await lib.json('POST', '/v1/notes/addTags', { ID: ids, EditedId: [999999] })).status).toBe(404);
    expect((await lib.json('POST', '/v1/notes/addTags', { ID: [], EditedId: [t1] })).status).toBe(400);
    expect((await lib.json('POST', '/v1/notes/addMeta', { ID: ids, Meta: 'nope' })).status).toBe(400);
    expect((await lib.json('POST', '/v1/notes/delete', { ID: [n1.ID, 999999] })).status).toBe(404);
    expect((await lib.json('GET', `/v1/note?id=${n1.ID}`)).status).toBe(200);
    expect((await lib.json('POST', '/v1/notes/delete', { ID: ids })).body).toEqual({ ok: true });
    expect((await lib.json('GET', `/v1/note?id=${n1.ID}`)).status).toBe(404);
  });

  it('edits the name and description inline', async () => {
    const n = await note({ Name: 'inline' });
    expect((await lib.json('POST', `/v1/note/editName?id=${n.ID}`, { Name: 'inline 2' })).body).toEqual({ ok: true, id: n.ID });
    expect((await lib.json('POST', `/v1/note/editName?id=${n.ID}`, { Name: '' })).status).toBe(400);
    expect((await lib.json('POST', `/v1/note/editDescription?id=${n.ID}`, { Description: 'said' })).body).toEqual({ ok: true, id: n.ID });
    expect((await lib.json<Note>('GET', `/v1/note?id=${n.ID}`)).body).toMatchObject({ Name: 'inline 2', Description: 'said' });
  });

  it('records creates, updates and deletes in the audit log', async () => {
    const n = await note({ Name: 'audited' });
    await note({ ID: n.ID, Description: 'x' });
    await lib.json('POST', `/v1/note/delete?Id=${n.ID}`);
    const logs = await lib.json<{ logs: { action: string }[] }>('GET', `/v1/logs/entity?entityType=note&entityId=${n.ID}`);
    expect(logs.body.logs.map((l) => l.action).sort()).toEqual(['create', 'delete', 'update']);
  });
});

describe('notes: description and the first text block', () => {
  it('mirrors the first text block and writes a new description into it', async () => {
    const n = await note({ Name: 'mirror', Description: 'old words' });
    const heading = await lib.json<{ id: number }>('POST', '/v1/note/block', { noteId: n.ID, type: 'heading', content: { text: 'Title' } });
    expect(heading.status).toBe(201);
    // A heading does not touch the description of a note without text blocks.
    expect((await lib.json<Note>('GET', `/v1/note?id=${n.ID}`)).body.Description).toBe('old words');
    // An empty first text block is seeded with the description.
    const first = await lib.json<{ id: number; content: { text: string } }>('POST', '/v1/note/block', { noteId: n.ID, type: 'text' });
    expect(first.body.content.text).toBe('old words');
    const second = await lib.json<{ id: number; content: { text: string } }>('POST', '/v1/note/block', { noteId: n.ID, type: 'text', content: { text: '' } });
    expect(second.body.content.text).toBe('');
    await lib.json('PUT', `/v1/note/block?id=${first.body.id}`, { content: { text: 'new words' } });
    expect((await lib.json<Note>('GET', `/v1/note?id=${n.ID}`)).body.Description).toBe('new words');
    // Saving the note's description rewrites the first text block.
    await note({ ID: n.ID, Description: 'from the form' });
    expect((await lib.json<{ content: { text: string } }>('GET', `/v1/note/block?id=${first.body.id}`)).body.content.text).toBe('from the form');
    await lib.json('POST', `/v1/note/editDescription?id=${n.ID}`, { Description: 'inline words' });
    expect((await lib.json<{ content: { text: string } }>('GET', `/v1/note/block?id=${first.body.id}`)).body.content.text).toBe('inline words');
    // Moving the second text block first makes it the mirror.
    await lib.json('PUT', `/v1/note/block?id=${second.body.id}`, { content: { text: 'second text' } });
    const status = await lib.json('POST', '/v1/note/blocks/reorder', { noteId: n.ID, positions: { [second.body.id]: 'b' } });
    expect(status.status).toBe(204);
    expect((await lib.json<Note>('GET', `/v1/note?id=${n.ID}`)).body.Description).toBe('second text');
    await lib.json('DELETE', `/v1/note/block?id=${second.body.id}`);
    expect((await lib.json<Note>('GET', `/v1/note?id=${n.ID}`)).body.Description).toBe('inline words');
    await lib.json('DELETE', `/v1/note/block?id=${first.body.id}`);
    expect((await lib.json<Note>('GET', `/v1/note?id=${n.ID}`)).body.Description).toBe('');
  });
});

describe('notes: pages', () => {
  it('lists notes with filters, bulk actions and a JSON form', async () => {
    const n = await note({ Name: 'page note', Description: 'shown in the list' });
    const html = await (await lib.fetch('/notes?Name=page%20note')).text();
    expect(html).toContain('page note');
    expect(html).toContain('name="StartDateAfter"');
    expect(html).toContain('name="Shared"');
    expect(html).toContain('action="/v1/notes/addTags"');
    const json = await lib.json<{ notes: Note[]; pageTitle: string }>('GET', '/notes.json?Name=page%20note');
    expect(json.body.notes.map((x) => x.ID)).toEqual([n.ID]);
    const menu = await (await lib.fetch('/dashboard')).text();
    expect(menu).toContain('href="/notes"');
  });

  it('renders every block type on the note page', async () => {
    const g = await group('page-ref-group');
    const r = await resource('page-gallery.png', await png(8, 8, 3));
    const q = await lib.json<{ ID: number }>('POST', '/v1/query', { Name: 'page table query', Text: "SELECT 'cell from query' AS label" });
    const n = await note({ Name: 'all blocks' });
    const add = async (type: string, content?: unknown) => {
      const res = await lib.json('POST', '/v1/note/block', { noteId: n.ID, type, content });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    await add('heading', { text: 'A heading', level: 3 });
    await add('text', { text: 'Some <b>text</b>' });
    await add('divider');
    await add('gallery', { resourceIds: [r] });
    await add('references', { groupIds: [g] });
    await add('todos', { items: [{ id: 'i1', label: 'Buy milk' }] });
    await add('table', { columns: ['x'], rows: [{ x: 'static cell' }] });
    await add('table', { queryId: q.body.ID });
    await add('calendar', { calendars: [{ id: 'c1', name: 'Holidays', source: { type: 'url', url: 'https://example.org/h.ics' } }] });
    const html = await (await lib.fetch(`/note?id=${n.ID}`)).text();
    expect(html).toMatch(/<h3 class="block-heading"[^>]*>A heading<\/h3>/);
    expect(html).toContain('Some &#60;b&#62;text&#60;/b&#62;');
    expect(html).toContain('block-divider');
    expect(html).toContain(`/v1/resource/preview?ID=${r}`);
    expect(html).toContain('page-ref-group');
    expect(html).toContain('Buy milk');
    expect(html).toContain('static cell');
    expect(html).toContain('cell from query');
    expect(html).toContain(`/v1/note/block/calendar/events?blockId=`);
    expect(html).toContain('/public/block-editor.js');
    const json = await lib.json<{ note: Note; blocks: { type: string }[] }>('GET', `/note.json?id=${n.ID}`);
    expect(json.body.blocks.map((b) => b.type)).toEqual(['heading', 'text', 'divider', 'gallery', 'references', 'todos', 'table', 'table', 'calendar']);
    expect((await lib.fetch('/note?id=999999')).status).toBe(404);
    expect((await (await lib.fetch(`/note/text?id=${n.ID}`)).text())).toContain('Buy milk');
  });

  it("shows the note type's template slots on the list and the note page", async () => {
    const type = await noteType({
      Name: 'slotted',
      CustomListHeader: '<p class="lh">list header</p>',
      CustomListFooter: '<p class="lf">list footer</p>',
      CustomAvatar: '<b class="av">AV</b>',
      CustomHeader: '<p class="nh">note header</p>',
      CustomSidebar: '<p class="ns">note sidebar</p>',
      CustomDetailFooter: '<p class="nf">note footer</p>',
      CustomCSS: '.lh { color: green; }',
    });
    const n = await note({ Name: 'slotted note', NoteTypeId: type });
    const list = await (await lib.fetch(`/notes?NoteTypeId=${type}`)).text();
    for (const part of ['<p class="lh">list header</p>', '<p class="lf">list footer</p>', '<b class="av">AV</b>', '.lh { color: green; }']) expect(list).toContain(part);
    const unfiltered = await (await lib.fetch('/notes?Name=slotted')).text();
    expect(unfiltered).not.toContain('list header');
    expect(unfiltered).toContain('<b class="av">AV</b>');
    const page = await (await lib.fetch(`/note?id=${n.ID}`)).text();
    for (const part of ['<p class="nh">note header</p>', '<p class="ns">note sidebar</p>', '<p class="nf">note footer</p>']) expect(page).toContain(part);
  });

  it('serves the create and edit forms, and a failed form post comes back with the message', async () => {
    const type = await noteType({ Name: 'form-type' });
    const n = await note({ Name: 'editable', NoteTypeId: type, StartDate: '2024-07-01T12:30' });
    const edit = await (await lib.fetch(`/note/edit?id=${n.ID}`)).text();
    expect(edit).toContain('value="2024-07-01T12:30"');
    expect(edit).toContain('form-type');
    expect((await lib.fetch('/note/new')).status).toBe(200);
    const res = await lib.form('/v1/note', [['_form', '/note/new'], ['Name', 'bad dates'], ['StartDate', 'soon']], { accept: 'text/html' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/note\/new\?.*error=/);
  });
});
