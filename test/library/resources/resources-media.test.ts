// Previews and media operations over HTTP with real image, PDF and video bytes: thumbnails at
// requested sizes (cached on disk), the placeholder, 415, custom thumbnails, rotate, crop,
// dimensions, and video thumbnails and trim with ffmpeg present and missing.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { hasFfmpeg, jpeg, pdf, png, postMultipart, upload, video } from '../../helpers/resources.js';

type R = { ID: number; Name: string; Width: number; Height: number; ContentType: string; Hash: string; OwnerId: number | null; resourceCategoryId: number; Tags: { ID: number }[]; versions: { comment: string; versionNumber: number }[] };

let lib: TestLibrary;
let seed = 500;
beforeAll(async () => {
  lib = await startTestLibrary(['-hash-worker-disabled']);
});
afterAll(async () => lib?.close());

async function one(data: Buffer, name = 'img.png', fields: Record<string, string | number | (string | number)[]> = {}): Promise<R> {
  const r = await upload(lib, [{ name, data }], fields);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body[0] as R;
}
async function preview(id: number, q = '', headers: Record<string, string> = {}) {
  const res = await lib.fetch(`/v1/resource/preview?ID=${id}${q}`, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  const meta = res.status === 200 ? await sharp(body).metadata() : null;
  return { res, body, meta };
}
const read = async (id: number) => (await lib.json<R>('GET', `/v1/resource?id=${id}`)).body;

describe('previews', () => {
  it('makes JPEG thumbnails at the requested size, caches them on disk and honours ETags', async () => {
    const r = await one(await png(800, 400, seed++));
    const def = await preview(r.ID);
    expect(def.res.status).toBe(200);
    expect(def.res.headers.get('content-type')).toBe('image/jpeg');
    expect(def.meta).toMatchObject({ format: 'jpeg', width: 600, height: 300 });
    expect(def.res.headers.get('cache-control')).toBe('max-age=2592000');
    const tall = await preview(r.ID, '&Height=100');
    expect(tall.meta).toMatchObject({ width: 200, height: 100 });
    const box = await preview(r.ID, '&Width=50&Height=50');
    expect(box.meta).toMatchObject({ width: 50, height: 50 });
    const capped = await preview(r.ID, '&Width=5000');
    expect(capped.meta!.width).toBe(600);
    const cached = readdirSync(join(lib.dir, 'files', '.previews', String(r.ID)));
    expect(cached).toContain(`${r.Hash}-0x100.jpg`);
    const etag = tall.res.headers.get('etag')!;
    expect(etag).toMatch(new RegExp(`^"${r.Hash}-0-100-\\d+"$`));
    expect((await preview(r.ID, '&Height=100', { 'if-none-match': etag })).res.status).toBe(304);
  });

  it('answers 307 to the placeholder when nothing can be made, and 415 for undecodable image bytes', async () => {
    // A file type no tool makes a thumbnail of (PDFs get one when pdftoppm is installed).
    const doc = await one(Buffer.from('plain words\n'), 'a.txt');
    const p = await lib.fetch(`/v1/resource/preview?ID=${doc.ID}`);
    expect(p.status).toBe(307);
    expect(p.headers.get('location')).toBe('/public/placeholders/file.jpg');
    expect(p.headers.get('cache-control')).toBe('no-cache');
    const placeholder = await lib.fetch('/public/placeholders/file.jpg');
    expect(placeholder.status).toBe(200);
    expect((await sharp(Buffer.from(await placeholder.arrayBuffer())).metadata()).format).toBe('jpeg');
    // A broken PNG can only arrive through a local import (uploads refuse it).
    writeFileSync(join(lib.dir, 'files', 'broken.png'), (await png(50, 50, seed++)).subarray(0, 120));
    const broken = await lib.json<R>('POST', '/v1/resource/local', { LocalPath: 'broken.png' });
    expect(broken.body.ContentType).toBe('image/png');
    expect((await lib.fetch(`/v1/resource/preview?ID=${broken.body.ID}`)).status).toBe(415);
    expect((await lib.fetch('/v1/resource/preview?ID=999999')).status).toBe(404);
    expect((await lib.fetch('/v1/resource/preview')).status).toBe(400);
  });

  it('custom thumbnails replace every preview until cleared', async () => {
    const r = await one(await png(100, 100, seed++));
    const form = (data: Buffer) => postMultipart(lib, `/v1/resource/preview?ID=${r.ID}`, 'thumbnail', [{ name: 't.png', data }]);
    expect((await form(await sharpSolid(2000, 1000, '#00ff00'))).status).toBe(204);
    const p = await preview(r.ID, '&Height=100');
    const px = await sharp(p.body).raw().toBuffer();
    expect(px[1]).toBeGreaterThan(200);
    expect(px[0]).toBeLessThan(60);
    expect(p.meta).toMatchObject({ width: 200, height: 100 });
    expect((await form(Buffer.from('not an image'))).status).toBe(400);
    expect((await postMultipart(lib, `/v1/resource/preview?ID=${r.ID}`, 'other', [{ name: 't.png', data: await png() }])).status).toBe(400);
    expect((await postMultipart(lib, '/v1/resource/preview?ID=999999', 'thumbnail', [{ name: 't.png', data: await png() }])).status).toBe(404);
    expect((await postMultipart(lib, '/v1/resource/preview?ID=abc', 'thumbnail', [{ name: 't.png', data: await png() }])).status).toBe(400);
    expect((await lib.json('POST', `/v1/resource/preview?ID=${r.ID}`, {})).status).toBe(400);
    expect((await lib.fetch(`/v1/resource/preview?ID=${r.ID}`, { method: 'DELETE' })).status).toBe(204);
    const after = await preview(r.ID, '&Height=100');
    expect(after.meta).toMatchObject({ width: 100, height: 100 });
    expect((await lib.fetch(`/v1/resource/preview/clear?ID=${r.ID}`, { method: 'POST' })).status).toBe(204);
  });
});

async function sharpSolid(w: number, h: number, color: string): Promise<Buffer> {
  return sharp({ create: { width: w, height: h, channels: 3, background: color } }).png().toBuffer();
}

describe('rotate, crop and dimensions', () => {
  it('rotates clockwise by any angle as a new version and clears previews', async () => {
    // Left half red, right half blue.
    const img = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#0000ff' } })
      .composite([{ input: await sharpSolid(20, 20, '#ff0000'), left: 0, top: 0 }])
      .png()
      .toBuffer();
    const r = await one(img);
    await preview(r.ID);
    expect((await lib.json('POST', '/v1/resources/rotate', { ID: r.ID, Degrees: 90 })).status).toBe(200);
    const after = await read(r.ID);
    expect(after).toMatchObject({ Width: 20, Height: 40 });
    expect(after.versions.map((v) => v.comment)).toEqual(['Rotated 90 degrees', 'Original']);
    expect(existsSync(join(lib.dir, 'files', '.previews', String(r.ID)))).toBe(false);
    const file = Buffer.from(await (await lib.fetch(`/v1/resource/view?id=${r.ID}`).then((v) => lib.fetch(v.headers.get('location')!))).arrayBuffer());
    const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3);
    expect(pixel(10, 10)[0]).toBeGreaterThan(200); // clockwise: the left (red) half is now on top
    expect(pixel(10, 30)[2]).toBeGreaterThan(200);
    await lib.json('POST', '/v1/resources/rotate', { ID: r.ID, Degrees: 45 });
    const diag = await read(r.ID);
    expect(diag.Width).toBeGreaterThan(40);
    expect((await lib.json('POST', '/v1/resources/rotate', { ID: r.ID, Degrees: 'x' })).status).toBe(400);
    const doc = await one(pdf('rot'), 'r.pdf');
    expect((await lib.json('POST', '/v1/resources/rotate', { ID: doc.ID, Degrees: 90 })).status).toBe(400);
  });

  it('crops in place, re-encodes GIF as PNG, and refuses rectangles outside the image', async () => {
    const r = await one(await jpeg(100, 80, seed++), 'c.jpg');
    const res = await lib.json('POST', '/v1/resources/crop', { ID: r.ID, X: 10, Y: 10, Width: 50, Height: 40 });
    expect(res.body).toEqual({ ok: true });
    const after = await read(r.ID);
    expect(after).toMatchObject({ Width: 50, Height: 40, ContentType: 'image/jpeg' });
    expect(after.versions[0].comment).toBe('Cropped to 50×40');
    expect((await lib.json('POST', '/v1/resources/crop', { ID: r.ID, X: 10, Y: 10, Width: 500, Height: 40 })).status).toBe(400);
    expect((await lib.json('POST', '/v1/resources/crop', { ID: r.ID, X: -1, Y: 0, Width: 5, Height: 5 })).status).toBe(400);
    expect((await lib.json('POST', '/v1/resources/crop', { ID: r.ID, X: 0, Y: 0, Width: 0, Height: 5 })).status).toBe(400);
    const gif = await one(await sharp(await png(30, 30, seed++)).gif().toBuffer(), 'g.gif');
    await lib.json('POST', '/v1/resources/crop', { ID: gif.ID, X: 0, Y: 0, Width: 10, Height: 10, Comment: 'corner' });
    const g = await read(gif.ID);
    expect(g.ContentType).toBe('image/png');
    expect(g.versions[0].comment).toBe('corner (re-encoded as PNG)');
  });

  it('crops as a new resource that inherits owner, groups, tags and category; identical content is 409', async () => {
    const owner = (await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'crop-owner' })).body.ID;
    const t = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'crop-tag' })).body.ID;
    const src = await one(await png(60, 60, seed++), 'source.png', { OwnerId: owner, Tags: [t], Groups: [owner] });
    const res = await lib.json<{ ok: boolean; id: number }>('POST', '/v1/resources/crop', { ID: src.ID, X: 0, Y: 0, Width: 30, Height: 30, AsNewResource: true });
    expect(res.body.ok).toBe(true);
    const made = await read(res.body.id);
    expect(made).toMatchObject({ Name: 'source (cropped)', Width: 30, Height: 30, OwnerId: owner, resourceCategoryId: src.resourceCategoryId });
    expect(made.Tags.map((x) => x.ID)).toEqual([t]);
    expect((await read(src.ID)).Width).toBe(60);
    const again = await lib.json<{ details: { existingResourceId: number }[] }>('POST', '/v1/resources/crop', { ID: src.ID, X: 0, Y: 0, Width: 30, Height: 30, AsNewResource: true });
    expect(again.status).toBe(409);
    expect(again.body.details[0].existingResourceId).toBe(res.body.id);
  });

  it('setDimensions stores the given size; recalculateDimensions reads it back from the file', async () => {
    const r = await one(await png(33, 22, seed++));
    await lib.json('POST', '/v1/resources/setDimensions', { ID: r.ID, Width: 1, Height: 2 });
    expect(await read(r.ID)).toMatchObject({ Width: 1, Height: 2 });
    expect((await lib.json('POST', '/v1/resource/recalculateDimensions', { ID: [r.ID] })).body).toEqual({ ok: true });
    expect(await read(r.ID)).toMatchObject({ Width: 33, Height: 22 });
    const doc = await one(pdf('dims'), 'd.pdf');
    expect((await lib.json('POST', '/v1/resource/recalculateDimensions', { ID: [doc.ID] })).status).toBe(400);
    expect((await lib.json('POST', '/v1/resources/setDimensions', { ID: r.ID, Width: -1, Height: 2 })).status).toBe(400);
  });
});

describe.skipIf(!hasFfmpeg())('video with ffmpeg', () => {
  it('makes a thumbnail from a frame, reads dimensions and trims as a new MP4 version', async () => {
    const v = await one(video(), 'clip.mp4');
    expect(v).toMatchObject({ ContentType: 'video/mp4', Width: 160, Height: 120 });
    const p = await preview(v.ID, '&Height=60');
    expect(p.res.status).toBe(200);
    expect(p.meta).toMatchObject({ format: 'jpeg', height: 60, width: 80 });
    await lib.json('POST', '/v1/resources/setDimensions', { ID: v.ID, Width: 1, Height: 1 });
    await lib.json('POST', '/v1/resource/recalculateDimensions', { ID: [v.ID] });
    expect(await read(v.ID)).toMatchObject({ Width: 160, Height: 120 });
    const t = await lib.json('POST', '/v1/resources/trim', { ID: v.ID, Start: '0.5', End: '00:01.5' });
    expect(t.body).toEqual({ ok: true });
    const after = await read(v.ID);
    expect(after.versions.map((x) => x.comment)).toEqual(['Trimmed to 0.5–00:01.5', 'Original']);
    expect(after.ContentType).toBe('video/mp4');
    expect((await lib.json('POST', '/v1/resources/trim', { ID: v.ID, Start: '2', End: '1' })).status).toBe(400);
    expect((await lib.json('POST', '/v1/resources/trim', { ID: v.ID, Start: 'soon', End: '1' })).status).toBe(400);
  });
});

describe('video without ffmpeg', () => {
  let bare: TestLibrary;
  beforeAll(async () => {
    bare = await startTestLibrary(['-ffmpeg-path', '/nonexistent/ffmpeg', '-hash-worker-disabled']);
  });
  afterAll(async () => bare?.close());

  it('answers 503 with a clear message for thumbnails and trim', async () => {
    // An MP4 container header is enough for the type to be detected.
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(12), Buffer.alloc(64, 1)]);
    const r = await upload(bare, [{ name: 'v.mp4', data: mp4 }]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body[0].ID;
    const p = await bare.json<{ error: string }>('GET', `/v1/resource/preview?ID=${id}`);
    expect(p.status).toBe(503);
    expect(p.body.error).toMatch(/ffmpeg/);
    const t = await bare.json<{ error: string }>('POST', '/v1/resources/trim', { ID: id, Start: '0', End: '1' });
    expect(t.status).toBe(503);
    expect(t.body.error).toMatch(/ffmpeg/);
  });
});

describe('private-address policy', () => {
  it('refuses a loopback URL without -allow-private-hosts and stores nothing', async () => {
    const before = (await lib.json<unknown[]>('GET', '/v1/resources?MaxResults=1000')).body.length;
    const r = await lib.json<{ error: string }>('POST', '/v1/resource/remote', { URL: `${lib.url}/public/placeholders/file.jpg` });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/blocked request/);
    // A host name is refused by the address it resolves to, which the message does not reveal.
    const byName = await lib.json<{ error: string }>('POST', '/v1/resource/remote', { URL: `${lib.url.replace('127.0.0.1', 'localhost')}/x.png` });
    expect(byName.status).toBe(400);
    expect(byName.body.error).toMatch(/blocked request/);
    expect(byName.body.error).not.toMatch(/127\.0\.0\.1|::1/);
    expect((await lib.json<unknown[]>('GET', '/v1/resources?MaxResults=1000')).body.length).toBe(before);
  });
});
