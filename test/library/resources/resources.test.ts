// Resources over HTTP: uploads (multipart, URL, local), duplicates, every list filter, edit,
// delete, view, bulk edits, merge, series membership and meta inheritance, AutoDetectRules.
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { jpeg, pdf, png, upload } from '../../helpers/resources.js';

type R = {
  ID: number;
  Name: string;
  Hash: string;
  ContentType: string;
  Width: number;
  Height: number;
  FileSize: number;
  OwnerId: number | null;
  Meta: Record<string, unknown>;
  ownMeta: Record<string, unknown>;
  seriesId: number | null;
  resourceCategoryId: number;
  Location: string;
  StorageLocation: string | null;
  OriginalName: string;
  OriginalLocation: string;
  url: string;
  Tags: { ID: number; Name: string }[];
  Groups: { ID: number }[] | null;
  Notes: { ID: number }[] | null;
  versions: { id: number; versionNumber: number }[] | null;
};

let lib: TestLibrary;
let stub: Server;
let stubUrl: string;
let seed = 100;
const nextPng = async (w = 64, h = 48) => png(w, h, seed++);

beforeAll(async () => {
  stub = createServer(async (req, res) => {
    if (req.url === '/image.png') {
      res.setHeader('content-type', 'image/png');
      return res.end(await png(40, 30, 7));
    }
    if (req.url === '/doc.pdf') return res.end(pdf('remote'));
    if (req.url === '/queued.png') {
      res.setHeader('content-type', 'image/png');
      res.setHeader('content-disposition', 'attachment; filename="from-server.png"');
      return res.end(await png(20, 10, 99));
    }
    res.statusCode = 404;
    res.end('no');
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', () => r()));
  const addr = stub.address() as { port: number };
  stubUrl = `http://127.0.0.1:${addr.port}`;
  const dir = `/tmp/stacks-alt-${process.pid}-${Date.now()}`;
  mkdirSync(dir, { recursive: true });
  lib = await startTestLibrary(['-allow-private-hosts', '-alt-fs', `archive:${dir}`, '-hash-worker-disabled']);
  (lib as unknown as { altPath: string }).altPath = dir;
});
afterAll(async () => {
  await lib?.close();
  stub?.close();
});

async function group(name: string, ownerId?: number): Promise<number> {
  const r = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: name, OwnerId: ownerId });
  return r.body.ID;
}
async function tag(name: string): Promise<number> {
  return (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: name })).body.ID;
}
async function one(fields: Record<string, string | number | (string | number)[]> = {}, data?: Buffer, name = 'file.png'): Promise<R> {
  const r = await upload(lib, [{ name, data: data ?? (await nextPng()) }], fields);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(Array.isArray(r.body)).toBe(true);
  return r.body[0] as R;
}
async function ids(query: string): Promise<number[]> {
  const r = await lib.json<R[]>('GET', `/v1/resources?${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.map((x) => x.ID).sort((a, b) => a - b);
}
const filesUnder = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)])) : [];

describe('upload', () => {
  it('stores several files, answers an array, detects types and sizes, and serves the bytes', async () => {
    const image = await nextPng(64, 48);
    const r = await upload(lib, [
      { name: 'photo.png', data: image },
      { name: 'paper.pdf', data: pdf('multi') },
      { name: 'pic.jpg', data: await jpeg(80, 60, 3) },
    ]);
    expect(r.status).toBe(200);
    const [a, b, c] = r.body as R[];
    expect(a).toMatchObject({ Name: 'photo.png', ContentType: 'image/png', Width: 64, Height: 48, FileSize: image.length, OriginalName: 'photo.png' });
    expect(a.Hash).toMatch(/^[0-9a-f]{40}$/);
    expect(a.Location).toBe(`/resources/${a.Hash.slice(0, 2)}/${a.Hash.slice(2, 4)}/${a.Hash.slice(4, 6)}/${a.Hash}.png`);
    expect(b).toMatchObject({ ContentType: 'application/pdf', Width: 0, Height: 0 });
    expect(b.Location.endsWith('.pdf')).toBe(true);
    expect(c).toMatchObject({ ContentType: 'image/jpeg', Width: 80, Height: 60 });
    const file = await lib.fetch(a.url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(image)).toBe(true);
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
    const view = await lib.fetch(`/v1/resource/view?id=${a.ID}`);
    expect(view.status).toBe(302);
    expect(view.headers.get('location')).toBe(a.url);
  });

  it('a single file still answers an array; Name, meta, links and manual dimensions apply', async () => {
    const g = await group('uploader');
    const t = await tag('upload-tag');
    const r = await one({ Name: 'named', Description: 'desc', OwnerId: g, Tags: [t], Groups: [g], Meta: '{"a":1}', Width: 999, Height: 5, OriginalLocation: 'camera' });
    expect(r).toMatchObject({ Name: 'named', OwnerId: g, Meta: { a: 1 }, Width: 999, Height: 5, OriginalLocation: 'camera' });
    expect(r.Tags.map((x) => x.ID)).toEqual([t]);
    const read = await lib.json<R>('GET', `/v1/resource?id=${r.ID}`);
    expect(read.body.Groups!.map((x) => x.ID)).toEqual([g]);
    expect(read.body.versions!.map((v) => v.versionNumber)).toEqual([1]);
  });

  it('refuses duplicates with 409 and details[].existingResourceId, and changes nothing', async () => {
    const data = await nextPng();
    const first = await one({}, data);
    const before = await ids('');
    const r = await upload(lib, [{ name: 'again.png', data }]);
    expect(r.status).toBe(409);
    expect(r.body.details).toEqual([{ error: expect.stringContaining(`#${first.ID}`), existingResourceId: first.ID }]);
    expect(await ids('')).toEqual(before);
  });

  it('keeps good files of a mixed upload and reports the failed ones', async () => {
    const dup = await nextPng();
    const existing = await one({}, dup);
    const broken = (await nextPng()).subarray(0, 200);
    const fresh = await nextPng();
    const r = await upload(lib, [
      { name: 'dup.png', data: dup },
      { name: 'broken.png', data: broken },
      { name: 'fresh.png', data: fresh },
    ]);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^2 of 3 files could not be saved/);
    expect(r.body.details[0].existingResourceId).toBe(existing.ID);
    expect(r.body.details[1].error).toMatch(/not a valid image/);
    expect((await ids(`Name=fresh.png`)).length).toBe(1);
  });

  it('refuses an undecodable image with 400 and leaves no row and no file', async () => {
    const filesBefore = filesUnder(join(lib.dir, 'files', 'resources')).length;
    const r = await upload(lib, [{ name: 'bad.png', data: (await nextPng()).subarray(0, 300) }]);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/not a valid image/);
    expect(filesUnder(join(lib.dir, 'files', 'resources')).length).toBe(filesBefore);
  });

  it('a failing reference leaves neither a row nor a file', async () => {
    const filesBefore = filesUnder(join(lib.dir, 'files', 'resources')).length;
    const r = await upload(lib, [{ name: 'x.png', data: await nextPng() }], { Tags: [987654] });
    expect(r.status).toBe(404);
    expect(filesUnder(join(lib.dir, 'files', 'resources')).length).toBe(filesBefore);
    expect(filesUnder(join(lib.dir, 'files', '.tmp'))).toEqual([]);
    expect((await upload(lib, [{ name: 'x.png', data: await nextPng() }], { Meta: '[1]' })).status).toBe(400);
    expect((await upload(lib, [{ name: 'x.png', data: await nextPng() }], { PathName: 'nope' })).status).toBe(400);
    expect((await upload(lib, [], { Name: 'nothing' })).status).toBe(400);
    expect((await lib.json('POST', '/v1/resource', { Name: 'no file' })).status).toBe(400);
  });

  it('a client that disconnects midway leaves no row and no stray file', async () => {
    const { request } = await import('node:http');
    const before = await ids('');
    const url = new URL(lib.url);
    const boundary = 'xxBOUNDARYxx';
    await new Promise<void>((resolve) => {
      const req = request({ host: url.hostname, port: url.port, path: '/v1/resource', method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(10_000_000) } });
      req.on('error', () => resolve());
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="resource"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
      req.write(Buffer.alloc(512 * 1024, 7));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
    // The server notices the broken stream and cleans up on its own schedule.
    for (let i = 0; i < 50 && filesUnder(join(lib.dir, 'files', '.tmp')).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(filesUnder(join(lib.dir, 'files', '.tmp'))).toEqual([]);
    expect(await ids('')).toEqual(before);
  });

  it('stores on a named filesystem selected by PathName', async () => {
    const r = await one({ PathName: 'archive' });
    expect(r.StorageLocation).toBe('archive');
    expect(r.url.startsWith('/archive/resources/')).toBe(true);
    const altPath = (lib as unknown as { altPath: string }).altPath;
    expect(existsSync(join(altPath, r.Location))).toBe(true);
    expect((await lib.fetch(r.url)).status).toBe(200);
  });

  it('dot folders and paths outside the root are never served', async () => {
    expect((await lib.fetch('/files/.tmp/x')).status).toBe(404);
    expect((await lib.fetch('/files/..%2f..%2fetc%2fpasswd')).status).toBe(404);
    expect((await lib.fetch('/files/.previews/1/x.jpg')).status).toBe(404);
  });
});

describe('remote and local imports', () => {
  it('downloads a URL synchronously, names it from the URL and records its origin', async () => {
    const r = await lib.json<R>('POST', '/v1/resource/remote', { URL: `${stubUrl}/image.png`, Tags: [] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ Name: 'image.png', ContentType: 'image/png', Width: 40, Height: 30, OriginalName: `${stubUrl}/image.png`, OriginalLocation: `${stubUrl}/image.png` });
    const again = await lib.json<{ error: string }>('POST', '/v1/resource/remote', { URL: `${stubUrl}/image.png` });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/already exists/);
  });

  it('the URL field of an upload switches to remote, returns one object, and can create the owner group', async () => {
    const r = await lib.json<R>('POST', '/v1/resource', { URL: `${stubUrl}/doc.pdf`, GroupName: 'Downloads', GroupCategoryName: 'Sources', FileName: 'renamed.pdf' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(Array.isArray(r.body)).toBe(false);
    expect(r.body.Name).toBe('renamed.pdf');
    const owner = await lib.json<{ Name: string; Category: { Name: string } }>('GET', `/v1/group?id=${r.body.OwnerId}`);
    expect(owner.body).toMatchObject({ Name: 'Downloads', Category: { Name: 'Sources' } });
  });

  it('refuses HTTP errors and missing URLs', async () => {
    expect((await lib.json('POST', '/v1/resource/remote', { URL: `${stubUrl}/missing` })).status).toBe(400);
    expect((await lib.json('POST', '/v1/resource/remote', { URL: '' })).status).toBe(400);
  });

  it('queues background downloads that become resources, with the same rules as a synchronous import', async () => {
    const settle = async (id: string) => {
      for (let i = 0; i < 200; i++) {
        const j = await lib.json<{ status: string; resourceId?: number; error?: string }>('GET', `/v1/jobs/get?id=${id}`);
        if (['completed', 'failed', 'cancelled'].includes(j.body.status)) return j.body;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('job did not finish');
    };
    const owner = await group('bg-owner');
    const bg = await lib.json<{ queued: boolean; jobs: { id: string; url: string }[] }>('POST', '/v1/resource/remote?background=true', {
      URL: `${stubUrl}/queued.png\n${stubUrl}/image.png`,
      OwnerId: owner,
    });
    expect(bg.status).toBe(202);
    expect(bg.body.queued).toBe(true);
    const [made, duplicate] = await Promise.all(bg.body.jobs.map((j) => settle(j.id)));
    expect(made.status).toBe('completed');
    const r = await lib.json<R>('GET', `/v1/resource?id=${made.resourceId}`);
    expect(r.body).toMatchObject({ Name: 'from-server.png', OwnerId: owner, Width: 20, Height: 10, OriginalLocation: `${stubUrl}/queued.png` });
    expect(duplicate).toMatchObject({ status: 'failed' });
    expect(duplicate.error).toMatch(/already exists/);
    const form = await lib.form('/v1/resource', [['URL', `${stubUrl}/missing`], ['background', 'true']]);
    expect(form.status).toBe(202);
    expect((await lib.json('POST', '/v1/resource/remote?background=true', { URL: `${stubUrl}/x.png`, OwnerId: 'abc' })).status).toBe(400);
  });

  it('registers a local file idempotently and refuses paths that escape the root', async () => {
    const dir = join(lib.dir, 'files', 'inbox');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'note.txt'), 'plain text here\n');
    const r = await lib.json<R>('POST', '/v1/resource/local', { LocalPath: 'inbox/note.txt' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ Name: 'note.txt', OriginalName: 'note.txt', Location: '/inbox/note.txt', ContentType: 'text/plain; charset=utf-8', Meta: {} });
    const again = await lib.json<R>('POST', '/v1/resource/local', { LocalPath: '/inbox/note.txt', Name: 'other' });
    expect(again.body.ID).toBe(r.body.ID);
    expect(again.body.Name).toBe('note.txt');
    expect((await lib.json('POST', '/v1/resource/local', { LocalPath: '../../etc/passwd' })).status).toBe(400);
    expect((await lib.json('POST', '/v1/resource/local', { LocalPath: 'inbox/missing.txt' })).status).toBe(400);
    const altPath = (lib as unknown as { altPath: string }).altPath;
    writeFileSync(join(altPath, 'alt.txt'), 'on the archive');
    const alt = await lib.json<R>('POST', '/v1/resource/local', { LocalPath: 'alt.txt', PathName: 'archive' });
    expect(alt.body).toMatchObject({ StorageLocation: 'archive', Location: '/alt.txt' });
  });

  it("refuses LocalPath in the service's own folders", async () => {
    for (const folder of ['_exports', '_imports', 'deleted', '.tmp']) {
      mkdirSync(join(lib.dir, 'files', folder), { recursive: true });
      writeFileSync(join(lib.dir, 'files', folder, 'x.txt'), 'private');
      const r = await lib.json<{ error: string }>('POST', '/v1/resource/local', { LocalPath: `${folder}/x.txt` });
      expect(r.status, folder).toBe(400);
    }
  });
});

describe('list filters', () => {
  let parent: number;
  let child: number;
  let t1: number;
  let t2: number;
  let a: R;
  let b: R;
  let c: R;
  let note: number;
  beforeAll(async () => {
    parent = await group('filter-parent');
    child = await group('filter-child', parent);
    t1 = await tag('f-one');
    t2 = await tag('f-two');
    note = (await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'n' })).body.ID;
    a = await one({ Name: 'filter alpha', Description: 'first of them', OwnerId: parent, Tags: [t1, t2], Meta: '{"color":"red","n":5}', OriginalName: 'orig-a.png' }, await nextPng(120, 90));
    b = await one({ Name: 'filter beta', OwnerId: child, Tags: [t1], Groups: [parent], Notes: [note], Meta: '{"color":"blue","n":10}' }, await nextPng(30, 20));
    c = await one({ Name: 'filter gamma' }, pdf('gamma'), 'gamma.pdf');
  });

  it('text, type, owner, subgroups, tags, groups, notes, ids and exact filters', async () => {
    expect(await ids('Name=filter')).toEqual([a.ID, b.ID, c.ID]);
    expect(await ids('Name=filter&Description=first')).toEqual([a.ID]);
    expect(await ids('Name=filter&ContentType=pdf')).toEqual([c.ID]);
    expect(await ids('Name=filter&ContentTypes=image/png&ContentTypes=application/pdf')).toEqual([a.ID, b.ID, c.ID]);
    expect(await ids(`OwnerId=${parent}`)).toEqual([a.ID]);
    expect(await ids(`OwnerId=${parent}&IncludeSubgroups=true`)).toEqual([a.ID, b.ID]);
    expect(await ids(`Tags=${t1}&Tags=${t2}`)).toEqual([a.ID]);
    expect(await ids(`Tags=${t1}`)).toEqual([a.ID, b.ID]);
    expect(await ids(`Groups=${parent}`)).toEqual([a.ID, b.ID]);
    expect(await ids(`Notes=${note}`)).toEqual([b.ID]);
    expect(await ids(`Ids=${a.ID},${c.ID}`)).toEqual([a.ID, c.ID]);
    expect(await ids(`Hash=${a.Hash}`)).toEqual([a.ID]);
    expect(await ids('OriginalName=orig-a.png')).toEqual([a.ID]);
    expect(await ids('Name=filter&Untagged=true')).toEqual([c.ID]);
    expect(await ids('Name=filter&ShowWithoutOwner=true')).toEqual([c.ID]);
  });

  it('dimensions, MetaQuery, dates, MaxResults, paging and sorting', async () => {
    expect(await ids('Name=filter&MinWidth=100')).toEqual([a.ID]);
    expect(await ids('Name=filter&MaxWidth=50&MinWidth=1')).toEqual([b.ID]);
    expect(await ids('Name=filter&MinHeight=21&MaxHeight=90')).toEqual([a.ID]);
    expect(await ids('MetaQuery=color:red')).toEqual([a.ID]);
    expect(await ids('MetaQuery=n:GT:6')).toEqual([b.ID]);
    expect(await ids('Name=filter&CreatedAfter=2000-01-01&CreatedBefore=2999-01-01')).toEqual([a.ID, b.ID, c.ID]);
    expect(await ids('Name=filter&UpdatedBefore=2000-01-01')).toEqual([]);
    const limited = await lib.json<R[]>('GET', '/v1/resources?Name=filter&MaxResults=2&SortBy=name%20asc');
    expect(limited.body.map((x) => x.Name)).toEqual(['filter alpha', 'filter beta']);
    expect(limited.headers.get('x-per-page')).toBe('2');
    const page2 = await lib.json<R[]>('GET', '/v1/resources?Name=filter&MaxResults=2&page=2&SortBy=name%20asc');
    expect(page2.body.map((x) => x.Name)).toEqual(['filter gamma']);
    expect((await lib.json('GET', '/v1/resources?SortBy=bogus')).status).toBe(400);
    expect((await lib.json('GET', '/v1/resources?CreatedBefore=yesterday')).status).toBe(400);
  });

  it('list records carry tags, owner and resource category', async () => {
    const r = await lib.json<(R & { Owner: { ID: number }; resourceCategory: { Name: string } })[]>('GET', `/v1/resources?Ids=${a.ID}`);
    expect(r.body[0].Owner.ID).toBe(parent);
    expect(r.body[0].resourceCategory.Name).toBe('Default');
    expect(r.body[0].Tags.map((x) => x.Name)).toEqual(['f-one', 'f-two']);
  });

  it('filters by an MRQL expression, AND-ed with the other filters, and refuses a bad one with its position', async () => {
    const r = await lib.json<R[]>('GET', `/v1/resources?MRQL=${encodeURIComponent(`name = "${a.Name}"`)}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.map((x) => x.ID)).toEqual([a.ID]);
    expect((await lib.json<R[]>('GET', `/v1/resources?Name=nothing-like-it&MRQL=${encodeURIComponent(`name = "${a.Name}"`)}`)).body).toEqual([]);
    const bad = await lib.json<{ error: string; position: number }>('GET', `/v1/resources?MRQL=${encodeURIComponent('name =')}`);
    expect(bad.status).toBe(400);
    expect(typeof bad.body.position).toBe('number');
  });

  it('view accepts filters and redirects only on exactly one match', async () => {
    expect((await lib.fetch(`/v1/resource/view?Hash=${a.Hash}`)).headers.get('location')).toBe(a.url);
    expect((await lib.fetch('/v1/resource/view?Name=filter')).status).toBe(404);
    expect((await lib.fetch('/v1/resource/view')).status).toBe(400);
    expect((await lib.fetch('/v1/resource/view?id=999999')).status).toBe(404);
  });
});

describe('edit, delete and bulk operations', () => {
  it('edits partially and replaces given lists and meta', async () => {
    const t = await tag('edit-tag');
    const r = await one({ Name: 'to edit', Tags: [t], Meta: '{"k":"v"}' });
    const e = await lib.json<R>('POST', '/v1/resource/edit', { ID: r.ID, Description: 'changed' });
    expect(e.status).toBe(200);
    expect(e.body).toMatchObject({ Name: 'to edit', Meta: { k: 'v' } });
    expect(e.body.Tags.map((x) => x.ID)).toEqual([t]);
    const cleared = await lib.json<R>('POST', '/v1/resource/edit', { ID: r.ID, Tags: [], Meta: '{"x":2}', Name: 'edited' });
    expect(cleared.body).toMatchObject({ Name: 'edited', Meta: { x: 2 }, Tags: [] });
    expect((await lib.json('POST', '/v1/resource/edit', { ID: r.ID, Name: '' })).status).toBe(400);
    expect((await lib.json('POST', '/v1/resource/edit', { ID: 424242, Name: 'x' })).status).toBe(404);
    expect((await lib.json('POST', `/v1/resource/editName?id=${r.ID}`, { Name: 'inline' })).body).toEqual({ ok: true, id: r.ID });
    expect((await lib.json<R>('GET', `/v1/resource?id=${r.ID}`)).body.Name).toBe('inline');
  });

  it('deletes the row and the file, keeping a backup copy', async () => {
    const r = await one();
    const path = join(lib.dir, 'files', r.Location);
    expect(existsSync(path)).toBe(true);
    const d = await lib.json<{ ID: number }>('POST', `/v1/resource/delete?Id=${r.ID}`);
    expect(d.body).toEqual({ ID: r.ID });
    expect(existsSync(path)).toBe(false);
    const backup = filesUnder(join(lib.dir, 'files', 'deleted')).find((f) => f.includes(`${r.Hash}__${r.ID}__nil___`));
    expect(backup).toBeDefined();
    // The backup is for the operator, not for anyone who knows the hash.
    const relative = backup!.slice(backup!.indexOf('/deleted/'));
    expect((await lib.fetch(`/files${relative}`)).status).toBe(404);
    expect((await lib.json('GET', `/v1/resource?id=${r.ID}`)).status).toBe(404);
    expect((await lib.fetch(r.url)).status).toBe(404);
  });

  it('bulk tags, groups, meta and delete', async () => {
    const [x, y] = [await one(), await one()];
    const [t1, t2] = [await tag('bulk-1'), await tag('bulk-2')];
    const g = await group('bulk-group');
    const post = (path: string, body: unknown) => lib.json<{ ok: boolean }>('POST', path, body);
    expect((await post('/v1/resources/addTags', { ID: [x.ID, y.ID], EditedId: [t1, t2] })).body).toEqual({ ok: true });
    expect(await ids(`Tags=${t1}&Tags=${t2}`)).toEqual([x.ID, y.ID]);
    await post('/v1/resources/removeTags', { ID: [x.ID], EditedId: [t2] });
    expect(await ids(`Tags=${t2}`)).toEqual([y.ID]);
    await post('/v1/resources/replaceTags', { ID: [y.ID], EditedId: [t1] });
    expect(await ids(`Tags=${t2}`)).toEqual([]);
    await post('/v1/resources/addGroups', { ID: [x.ID, y.ID], EditedId: [g] });
    expect(await ids(`Groups=${g}`)).toEqual([x.ID, y.ID]);
    await post('/v1/resources/addMeta', { ID: [x.ID, y.ID], Meta: '{"batch":7}' });
    expect(await ids('MetaQuery=batch:EQ:7')).toEqual([x.ID, y.ID]);
    expect((await post('/v1/resources/addTags', { ID: [x.ID], EditedId: [999999] })).status).toBe(404);
    expect((await post('/v1/resources/addTags', { ID: [999999], EditedId: [t1] })).status).toBe(404);
    expect((await post('/v1/resources/delete', { ID: [x.ID, y.ID] })).body).toEqual({ ok: true });
    expect(await ids(`Ids=${x.ID},${y.ID}`)).toEqual([]);
  });

  it('merge moves links and versions to the winner; KeepAsVersion keeps the loser file', async () => {
    const g = await group('merge-owner');
    const t = await tag('merge-tag');
    const winner = await one({ Meta: '{"a":"winner"}' });
    const loser = await one({ OwnerId: g, Tags: [t], Meta: '{"a":"loser","b":2}' });
    const r = await lib.json<{ ok: boolean }>('POST', '/v1/resources/merge', { Winner: winner.ID, Losers: [loser.ID], KeepAsVersion: true });
    expect(r.body).toEqual({ ok: true });
    const w = await lib.json<R>('GET', `/v1/resource?id=${winner.ID}`);
    expect(w.body.Tags.map((x) => x.ID)).toEqual([t]);
    expect(w.body.Groups!.map((x) => x.ID)).toEqual([g]);
    expect(w.body.Meta).toMatchObject({ a: 'winner', b: 2 });
    expect((w.body.Meta.backups as Record<string, unknown>)[`resource_${loser.ID}`]).toBeDefined();
    expect(w.body.versions!.length).toBe(2);
    expect((await lib.json('GET', `/v1/resource?id=${loser.ID}`)).status).toBe(404);
    // The loser's file is still on disk because a version of the winner points at it.
    expect(existsSync(join(lib.dir, 'files', loser.Location))).toBe(true);
    expect((await lib.json('POST', '/v1/resources/merge', { Winner: winner.ID, Losers: [winner.ID] })).status).toBe(400);
  });

  it('merge names the first resource that does not exist and changes nothing', async () => {
    const winner = await one({});
    const loser = await one({});
    const missing = await lib.json<{ error: string }>('POST', '/v1/resources/merge', { Winner: winner.ID, Losers: [loser.ID, 987654] });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('resource 987654 not found');
    expect((await lib.json('GET', `/v1/resource?id=${loser.ID}`)).status).toBe(200);
    const noWinner = await lib.json<{ error: string }>('POST', '/v1/resources/merge', { Winner: 987655, Losers: [loser.ID] });
    expect(noWinner.body).toEqual({ error: 'resource 987655 not found' });
  });
});

describe('series and resource categories', () => {
  it('SeriesSlug creates on demand; the first member donates meta; later members inherit', async () => {
    const first = await one({ SeriesSlug: 'trip-2024', Meta: '{"place":"Oslo","year":2024}' });
    expect(first.seriesId).not.toBeNull();
    expect(first.ownMeta).toEqual({});
    const series = await lib.json<{ Slug: string; Meta: Record<string, unknown> }>('GET', `/v1/series?id=${first.seriesId}`);
    expect(series.body).toMatchObject({ Slug: 'trip-2024', Meta: { place: 'Oslo', year: 2024 } });
    const second = await one({ SeriesSlug: 'trip-2024', Meta: '{"place":"Bergen"}' });
    expect(second.seriesId).toBe(first.seriesId);
    expect(second.Meta).toEqual({ place: 'Bergen', year: 2024 });
    expect(second.ownMeta).toEqual({ place: 'Bergen' });
    // Editing away a series key records an explicit null override.
    const edited = await lib.json<R>('POST', '/v1/resource/edit', { ID: second.ID, Meta: '{"place":"Bergen"}' });
    expect(edited.body.Meta).toEqual({ place: 'Bergen' });
    expect(edited.body.ownMeta).toEqual({ place: 'Bergen', year: null });
    // A series meta change reaches members except where they override.
    await lib.json('POST', '/v1/series', { ID: first.seriesId, Meta: '{"place":"Oslo","year":2025}' });
    expect((await lib.json<R>('GET', `/v1/resource?id=${first.ID}`)).body.Meta).toEqual({ place: 'Oslo', year: 2025 });
    expect((await lib.json<R>('GET', `/v1/resource?id=${second.ID}`)).body.Meta).toEqual({ place: 'Bergen' });
    expect(await ids(`SeriesId=${first.seriesId}`)).toEqual([first.ID, second.ID]);
    // Leaving freezes the effective meta; the series stays, even once it is empty (contract).
    expect((await lib.json('POST', `/v1/resource/removeSeries?id=${first.ID}`)).body).toEqual({ id: first.ID });
    const left = await lib.json<R>('GET', `/v1/resource?id=${first.ID}`);
    expect(left.body).toMatchObject({ seriesId: null, Meta: { place: 'Oslo', year: 2025 }, ownMeta: {} });
    expect((await lib.json('GET', `/v1/series?id=${first.seriesId}`)).status).toBe(200);
    expect((await lib.json('POST', `/v1/resource/removeSeries?id=${second.ID}`)).status).toBe(200);
    expect((await lib.json('GET', `/v1/series?id=${first.seriesId}`)).status).toBe(200);
    expect(await ids(`SeriesId=${first.seriesId}`)).toEqual([]);
    expect((await upload(lib, [{ name: 'x.png', data: await nextPng() }], { SeriesId: 999999 })).status).toBe(404);
  });

  it('AutoDetectRules assign the category on upload: priority, then specificity, then id', async () => {
    const mk = async (name: string, rules: unknown) => (await lib.json<{ ID: number }>('POST', '/v1/resourceCategory', { Name: name, AutoDetectRules: JSON.stringify(rules) })).body.ID;
    const docs = await mk('Documents', { contentTypes: ['application/pdf'] });
    const big = await mk('Big images', { contentTypes: ['image/png'], width: { min: 500 } });
    const anyPng = await mk('PNG images', { contentTypes: ['image/png'] });
    const urgent = await mk('Urgent PNG', { contentTypes: ['image/png'], height: { min: 590 }, priority: 5 });
    expect((await one({}, pdf('auto'), 'a.pdf')).resourceCategoryId).toBe(docs);
    expect((await one({}, await nextPng(600, 100))).resourceCategoryId).toBe(big);
    expect((await one({}, await nextPng(20, 20))).resourceCategoryId).toBe(anyPng);
    expect((await one({}, await nextPng(600, 600))).resourceCategoryId).toBe(urgent);
    expect((await one({ ResourceCategoryId: docs }, await nextPng(600, 600))).resourceCategoryId).toBe(docs);
    const bad = await lib.json('POST', '/v1/resourceCategory', { Name: 'Broken rules', AutoDetectRules: '{"contentTypes":[],"foo":1}' });
    expect(bad.status).toBe(400);
  });
});

describe('pages', () => {
  it('renders the grid, details table, detail, upload, edit and JSON forms', async () => {
    const t = await tag('page-tag');
    const r = await one({ Name: 'page <b>resource</b>', Tags: [t] });
    const grid = await lib.fetch('/resources?Name=page');
    expect(grid.status).toBe(200);
    const html = await grid.text();
    expect(html).toContain('data-testid="resource-list"');
    expect(html).toContain(`/v1/resource/preview?ID=${r.ID}&#38;Height=200`);
    expect(html).toContain('page &#60;b&#62;resource&#60;/b&#62;');
    expect(html).toContain('href="/resources"');
    const table = await (await lib.fetch('/resources/details?Name=page')).text();
    expect(table).toContain('data-testid="resource-table"');
    const detail = await lib.fetch(`/resource?id=${r.ID}`);
    const detailHtml = await detail.text();
    expect(detailHtml).toContain('data-testid="versions"');
    expect(detailHtml).toContain(`/v1/resource/version/file?versionId=`);
    expect(detailHtml).toContain('Image operations');
    const json = await lib.json<{ resource: { ID: number } }>('GET', `/resource.json?id=${r.ID}`);
    expect(json.body.resource.ID).toBe(r.ID);
    const form = await (await lib.fetch('/resource/new')).text();
    expect(form).toContain('type="file" name="resource" multiple');
    expect(form).toMatch(/<option value="archive"[^>]*>archive<\/option>/);
    expect((await lib.fetch(`/resource/edit?id=${r.ID}`)).status).toBe(200);
    expect((await lib.fetch('/resource?id=999999')).status).toBe(404);
  });

  it('a browser upload is redirected to the new resource; a failed one back to the form', async () => {
    const ok = await upload(lib, [{ name: 'b.png', data: await nextPng() }], {});
    expect(ok.status).toBe(200);
    const form = new FormData();
    form.append('_form', '/resource/new');
    form.append('resource', new Blob([new Uint8Array(await nextPng())]), 'browser.png');
    const res = await fetch(`${lib.url}/v1/resource`, { method: 'POST', body: form, redirect: 'manual', headers: { accept: 'text/html' } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/resource\?id=\d+$/);
  });
});
