// Companion §15.15: schedules (T173), toasts (T174), the network allow-list (T175), file-system
// grants (T176), event payloads (T177, T212) and no rollback after an error (T214).
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubServer, type StubServer } from '../../helpers/stub-server.js';
import { fixtureF, sleep, startTestClips, waitFor, type FixtureF, type TestClips } from '../helper.js';
import { actionPlugin, freshUpload, install, settled, storage } from './helper.js';

let t: TestClips;
let F: FixtureF;
let web: StubServer;

beforeAll(async () => {
  web = await startStubServer();
  web.routes.set('/echo', (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain', 'x-seen': req.method ?? '' }).end(`${req.method} ${body}`));
  });
  web.routes.set('/to-http', (_req, res) => res.writeHead(302, { location: `${web.url}/echo` }).end());
  web.routes.set('/file.txt', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('downloaded'));
  t = await startTestClips(['--allow-private-hosts']);
  F = await fixtureF(t);
});
afterAll(async () => {
  await t.close();
  await web.close();
});

async function action(name: string, body: string, extra = ''): Promise<Record<string, string>> {
  const p = await install(t, `${name}.lua`, actionPlugin(name, body, extra));
  const r = await t.req(F.KE, 'POST', `/plugins/${p.id}/actions/run`, {});
  if (r.status !== 200) throw new Error(r.text);
  return storage(t, p.id);
}

describe('schedules (T173)', () => {
  it('calls the named function every interval and stops when disabled', async () => {
    const p = await install(t, 'tick.lua', `Plugin = { name = "Tick", version = "1.0.0", schedules = {{name = "tick", interval = 1}, {name = "bad", interval = 0}} }
function tick() storage.set("ticks", tostring((tonumber(storage.get("ticks")) or 0) + 1)) end`);
    expect((await storage(t, p.id)).ticks).toBeUndefined();
    await waitFor(async () => Number((await storage(t, p.id)).ticks ?? 0) >= 2, 10_000, 'two ticks');
    await t.req(F.KA, 'PUT', `/plugins/${p.id}/disable`);
    const after = (await storage(t, p.id)).ticks;
    await sleep(2000);
    expect((await storage(t, p.id)).ticks).toBe(after);
  });
});

describe('toasts (T174)', () => {
  it('accepts five toasts a minute, cuts long messages', async () => {
    const p = await install(t, 'toast.lua', `Plugin = { name = "Toaster", version = "1.0.0", events = {"clip:created"} }
function on_clip_created(d)
  local n = 0
  for i = 1, 10 do if toast.show(i == 1 and string.rep("x", 300) or "hi", "weird") == true then n = n + 1 end end
  storage.set("shown", tostring(n))
end`);
    await freshUpload(t, F.KE);
    await settled(t);
    expect((await storage(t, p.id)).shown).toBe('5');
    const toasts = t.svc.services.pluginHost.activity.toasts.filter((x) => x.plugin === 'Toaster');
    expect(toasts[0].message).toBe(`${'x'.repeat(197)}...`);
    expect(toasts[0].type).toBe('info');
    await t.req(F.KA, 'DELETE', `/plugins/${p.id}`);
  });
});

describe('network allow-list (T175)', () => {
  it('matches hosts exactly or one label under a wildcard, and checks the method', async () => {
    const s = await action(
      'Net',
      `  local r, e = http.get("https://example.com/")
  storage.set("a", tostring(r) .. " " .. tostring(e))
  r, e = http.post("https://api.example.com/")
  storage.set("b", tostring(r) .. " " .. tostring(e))
  r, e = http.get("https://a.b.example.com/")
  storage.set("c", tostring(e))
  r, e = http.get("ftp://example.com/")
  storage.set("d", tostring(r))`,
      'network = {["*.example.com"] = {"GET"}},',
    );
    expect(s.a).toBe('nil domain not in allowlist: example.com');
    expect(s.b).toMatch(/^nil .*POST not allowed/);
    expect(s.c).toBe('domain not in allowlist: a.b.example.com');
    expect(s.d).toBe('nil');
  });

  it('makes allowed requests and returns status, canonical headers and body', async () => {
    const host = new URL(web.url).host;
    const s = await action(
      'NetOk',
      `  local r = http.post("${web.url}/echo", {body = "ping", headers = {["X-Test"] = "1"}})
  storage.set("status", math.type(r.status) .. " " .. tostring(r.status))
  storage.set("body", r.body)
  storage.set("type", tostring(r.headers["Content-Type"]))
  storage.set("seen", tostring(r.headers["X-Seen"]))
  local g, e = http.put("${web.url}/echo")
  storage.set("put", tostring(e))
  local h, e2 = http.get("${web.url}/to-http")
  storage.set("redirect", tostring(e2))
  local made = clips.create_from_url("${web.url}/file.txt")
  storage.set("made", tostring(made and made.id))`,
      `network = {["${host.split(':')[0]}"] = {"GET", "post"}},`,
    );
    expect(s.status).toBe('integer 200');
    expect(s.body).toBe('POST ping');
    expect(s.type).toBe('text/plain');
    expect(s.seen).toBe('POST');
    expect(s.put).toMatch(/PUT not allowed/);
    expect(s.redirect).toMatch(/non-https/);
    const clip = await t.req<{ filename: string }>(F.KE, 'GET', `/clips/${s.made}`);
    expect(clip.body.filename).toBe('file.txt');
    expect((await t.raw(F.KE, 'GET', `/clips/${s.made}/data`)).text).toBe('downloaded');
  });
});

describe('file system (T176)', () => {
  it('confines reads and writes to the private directory and granted folders', async () => {
    const granted = join(t.dir, 'granted');
    mkdirSync(granted);
    writeFileSync(join(granted, 'in.txt'), 'inside');
    writeFileSync(join(t.dir, 'secret.txt'), 'secret');
    symlinkSync(join(t.dir, 'secret.txt'), join(granted, 'link.txt'));
    const src = actionPlugin(
      'Files',
      `  local dir = "${t.dataDir}/plugin-data/" .. storage.get("id")
  local function keep(k, a, b) storage.set(k, tostring(a) .. " " .. tostring(b)) end
  keep("etc", fs.read("/etc/hostname"))
  keep("write", fs.write(dir .. "/x.txt", "1"))
  keep("read", fs.read(dir .. "/x.txt"))
  keep("rel", fs.read("x.txt"))
  keep("granted", fs.read("${granted}/in.txt"))
  keep("grantedWrite", fs.write("${granted}/new.txt", "no"))
  keep("link", fs.read("${granted}/link.txt"))
  keep("traverse", fs.read("${granted}/../secret.txt"))
  keep("exists", fs.exists("/etc/hostname"))
  keep("existsOwn", fs.exists(dir .. "/x.txt"))
  local list = fs.list(dir)
  keep("list", list[1].name, math.type(list[1].size))`,
      'filesystem = {read = true, write = true},',
    );
    const p = await install(t, 'files.lua', src);
    await t.req(F.KA, 'PUT', `/plugins/${p.id}/storage/id`, { value: String(p.id) });
    await t.svc.services.plugins['repo'].addGrant(p.id, 'fs_read', granted, 'now');
    await t.req(F.KE, 'POST', `/plugins/${p.id}/actions/run`, {});
    const s = await storage(t, p.id);
    expect(s.etc).toBe('nil permission denied: /etc/hostname');
    expect(s.write).toBe('true nil');
    expect(s.read).toBe('1 nil');
    expect(s.rel).toBe('1 nil');
    expect(s.granted).toBe('inside nil');
    expect(s.grantedWrite).toBe(`false permission denied: ${granted}/new.txt`);
    expect(s.link).toBe(`nil permission denied: ${granted}/link.txt`);
    expect(s.traverse).toMatch(/^nil permission denied/);
    expect(s.exists).toBe('false nil');
    expect(s.existsOwn).toBe('true nil');
    expect(s.list).toBe('x.txt integer');
  });

  it('refuses everything without the declared capability', async () => {
    const s = await action('NoFiles', '  local a, b = fs.write("x.txt", "1")\n  storage.set("w", tostring(a) .. " " .. tostring(b))');
    expect(s.w).toBe('false permission denied: x.txt');
  });
});

describe('size caps and per-plugin storage (§8.8, §8.9)', () => {
  it('refuses reading files over 50 MiB and storage beyond its limits; storage is private to each plugin', async () => {
    const p = await install(
      t,
      'caps.lua',
      actionPlugin(
        'Caps',
        `  local function keep(k, a, b) storage.set(k, tostring(a) .. " " .. tostring(b)) end
  keep("big", fs.read("big.bin"))
  keep("key", storage.set(string.rep("k", 257), "v"))
  keep("value", storage.set("v", string.rep("v", 1024 * 1024 + 1)))
  storage.set("mine", "caps")`,
        'filesystem = {read = true},',
      ),
    );
    const dir = join(t.dataDir, 'plugin-data', String(p.id));
    mkdirSync(dir, { recursive: true });
    // Sparse: 50 MiB + 1 byte of size without writing them.
    writeFileSync(join(dir, 'big.bin'), '');
    truncateSync(join(dir, 'big.bin'), 50 * 1024 * 1024 + 1);
    await t.req(F.KE, 'POST', `/plugins/${p.id}/actions/run`, {});
    const s = await storage(t, p.id);
    expect(s.big).toBe('nil file exceeds 50 MiB limit');
    expect(s.key).toMatch(/^false storage key too long/);
    expect(s.value).toMatch(/^false storage value exceeds 1 MiB/);
    const other = await action('Other', '  storage.set("seen", tostring(storage.get("mine")))');
    expect(other.seen).toBe('nil');
    expect(other.mine).toBeUndefined();
  });
});

describe('clipboard (§8.9)', () => {
  it('refuses utils.clipboard_write unless the manifest declares clipboard = true', async () => {
    const body = '  local ok, e = utils.clipboard_write("hi")\n  storage.set("w", tostring(ok) .. " " .. tostring(e))';
    expect((await action('NoClip', body)).w).toBe('false clipboard access not declared in the manifest');
    // Declared: the call reaches the clipboard, which this test server has none of (no display).
    const declared = (await action('Clip', body, 'clipboard = true,')).w;
    expect(declared).toMatch(/^false /);
    expect(declared).not.toMatch(/not declared/);
  });
});

describe('events (T177, T212, T214)', () => {
  it('delivers renames and tag moves with their payloads (T177)', async () => {
    const all = ['app:startup', 'app:shutdown', 'clip:created', 'clip:deleted', 'clip:archived', 'clip:unarchived', 'clip:renamed', 'watch:file_detected', 'watch:import_complete', 'tag:created', 'tag:updated', 'tag:deleted', 'tag:added_to_clip', 'tag:removed_from_clip'];
    const handlers = all
      .map((e) => {
        const fn = e.startsWith('app:') ? `on_${e.slice(4)}` : `on_${e.replace(':', '_')}`;
        return `function ${fn}(d) storage.set("${e}", json.encode(d)) end`;
      })
      .join('\n');
    const p = await install(t, 'tracker.lua', `Plugin = { name = "Tracker", version = "1.0.0", events = {${all.map((e) => `"${e}"`).join(', ')}} }\n${handlers}`);
    expect((await t.req(F.KE, 'PATCH', '/clips/1', { filename: 'n2.txt' })).status).toBe(204);
    expect((await t.req(F.KE, 'PUT', '/clips/1/tags/3')).status).toBe(204);
    await settled(t);
    const s = await storage(t, p.id);
    expect(JSON.parse(s['clip:renamed'])).toEqual({ filename: 'n2.txt', id: 1 });
    expect(JSON.parse(s['tag:removed_from_clip'])).toEqual({ clip_id: 1, tag_id: 2 });
    expect(JSON.parse(s['tag:added_to_clip'])).toEqual({ clip_id: 1, tag_id: 3 });
    await t.req(F.KA, 'DELETE', `/plugins/${p.id}`);
  });

  it('hands integers to Lua as integers (T212)', async () => {
    const p = await install(t, 'ints.lua', `Plugin = { name = "Ints", version = "1.0.0", events = {"clip:created"} }
function on_clip_created(data)
  storage.set("id", math.type(data.id) .. " " .. tostring(data.id))
  storage.set("time", math.type(utils.time()))
  storage.set("created", tostring(clips.list({limit = 1})[1].created_at))
  storage.set("json", json.encode({id = data.id}))
  storage.set("decoded", "n=" .. json.decode('{"n":7}').n)
end`);
    const r = await freshUpload(t, F.KE);
    await settled(t);
    const s = await storage(t, p.id);
    const id = (r.body as { id: number }).id;
    expect(s.id).toBe(`integer ${id}`);
    expect(s.time).toBe('integer');
    expect(s.created).toMatch(/^\d+$/);
    expect(s.json).toBe(`{"id":${id}}`);
    expect(s.decoded).toBe('n=7');
    await t.req(F.KA, 'DELETE', `/plugins/${p.id}`);
  });

  it('keeps what a handler wrote before it failed (T214)', async () => {
    const p = await install(t, 'late.lua', `Plugin = { name = "Late", version = "1.0.0", events = {"clip:created"} }
function on_clip_created(data)
  storage.set("before", "1")
  clips.create({data = "side", content_type = "text/plain"})
  error("late")
end`);
    await freshUpload(t, F.KE);
    await settled(t);
    expect((await t.req(F.KA, 'GET', `/plugins/${p.id}/storage/before`)).body).toEqual({ key: 'before', value: '1' });
    expect((await t.req<{ total: number }>(F.KE, 'GET', '/clips?search=side')).body.total).toBe(1);
    const plugin = (await t.req<{ plugins: { id: number; status: string }[] }>(F.KV, 'GET', '/plugins')).body.plugins.find((x) => x.id === p.id);
    expect(plugin!.status).toBe('loaded');
    await t.req(F.KA, 'DELETE', `/plugins/${p.id}`);
  });
});

describe('image module (§8.6)', () => {
  interface Images {
    red: number;
    half: number;
    photo: number;
    huge: number;
  }
  let img: Images;

  /** Uploads the images the cases use (real pixels, made here). */
  beforeAll(async () => {
    const up = async (filename: string, type: string, data: Buffer) => (await t.upload(F.KE, { filename, type, data })).body.id;
    const red = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#ff0000' } }).png().toBuffer();
    const blue = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#0000ff' } }).png().toBuffer();
    const photo = await sharp(red)
      .jpeg()
      .withExif({
        IFD0: { Make: 'Acme', Model: 'Cam 1' },
        IFD2: { FNumber: '28/10', ISOSpeedRatings: '200', ExposureTime: '1/250', FocalLength: '50/1', DateTimeOriginal: '2023:05:06 07:08:09', LensModel: 'Lens X' },
        IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '52/1 30/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '13/1 24/1 36/1' },
      })
      .toBuffer();
    img = {
      red: await up('red.png', 'image/png', red),
      half: await up('half.png', 'image/png', await sharp(red).composite([{ input: blue, left: 20, top: 0 }]).png().toBuffer()),
      photo: await up('photo.jpg', 'image/jpeg', photo),
      // 400 megapixels declared in a few bytes: refused before anything is decoded.
      huge: await up('huge.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="20000"><rect width="1" height="1"/></svg>')),
    };
  });

  /** Runs Lua in an action; `keep(k, a, b)` stores both results, `made(k, r, e)` stores a produced image as a clip. */
  async function images(body: string): Promise<Record<string, string>> {
    const prelude = `  local function keep(k, a, b) storage.set(k, tostring(a) .. " " .. tostring(b)) end
  local function made(k, r, e)
    if not r then storage.set(k, "nil " .. tostring(e)) return end
    local c = clips.create({data = r.data, mime_type = r.mime_type, name = k})
    storage.set(k, r.mime_type .. " " .. tostring(c.id))
  end
  local RED, HALF, PHOTO, HUGE = ${img.red}, ${img.half}, ${img.photo}, ${img.huge}
`;
    return action(`Img${Math.random().toString(36).slice(2, 8)}`, prelude + body);
  }

  /** The stored clip a `made` entry names: its type and decoded size. */
  async function produced(entry: string) {
    const [mime, id] = entry.split(' ');
    const clip = await t.req<{ content_type: string; filename: string }>(F.KE, 'GET', `/clips/${id}`);
    const data = Buffer.from(await (await fetch(`${t.url}/api/v1/clips/${id}/data`, { headers: { authorization: `Bearer ${F.KE}` } })).arrayBuffer());
    const meta = await sharp(data).metadata();
    return { mime, type: clip.body.content_type, size: `${meta.width}x${meta.height}`, data };
  }

  it('info: dimensions, format, size and EXIF presence; refusals for other clips', async () => {
    const s = await images(`
  keep("red", json.encode(image.info(RED)))
  keep("photo", json.encode(image.info(PHOTO)))
  keep("text", image.info(1))
  keep("broken", image.info(2))
  keep("missing", image.info(999))
  keep("huge", image.info(HUGE))
  keep("bad", image.info("x"))`);
    const size = (await t.req<{ size: number }>(F.KE, 'GET', `/clips/${img.red}`)).body.size;
    expect(JSON.parse(s.red.replace(/ nil$/, ''))).toEqual({ width: 40, height: 20, format: 'png', size, has_exif: false });
    expect(JSON.parse(s.photo.replace(/ nil$/, ''))).toMatchObject({ width: 40, height: 20, format: 'jpeg', has_exif: true });
    expect(s.text).toBe('nil clip 1 is not an image (type: text/plain)');
    expect(s.broken).toMatch(/^nil failed to read image: /);
    expect(s.missing).toBe('nil clip not found');
    expect(s.huge).toBe('nil image too large (20000x20000, max 100 megapixels)');
    expect(s.bad).toBe('nil invalid clip id');
  });

  it('resize: fill, keep-aspect with 0, contain and cover; bad sizes and modes', async () => {
    const s = await images(`
  made("fill", image.resize(RED, 10, 10))
  made("keep", image.resize(RED, 10, 0))
  made("contain", image.resize(RED, 10, 10, {fit = "contain"}))
  made("cover", image.resize(RED, 10, 10, {fit = "cover"}))
  keep("zero", image.resize(RED, 0, 0))
  keep("big", image.resize(RED, 10001, 5))
  keep("mode", image.resize(RED, 5, 5, {fit = "zoom"}))
  keep("nowidth", image.resize(RED))
  keep("text", image.resize(1, 5, 5))
  keep("huge", image.resize(HUGE, 5, 5))`);
    const fill = await produced(s.fill);
    expect([fill.mime, fill.type, fill.size]).toEqual(['image/png', 'image/png', '10x10']);
    expect((await produced(s.keep)).size).toBe('10x5');
    expect((await produced(s.contain)).size).toBe('10x5');
    expect((await produced(s.cover)).size).toBe('10x10');
    expect(s.zero).toBe('nil width and height cannot both be 0');
    expect(s.big).toBe('nil width must be a whole number from 0 to 10000');
    expect(s.mode).toBe('nil unknown fit mode "zoom" (valid: fill, contain, cover)');
    expect(s.nowidth).toBe('nil width is required');
    expect(s.text).toBe('nil clip 1 is not an image (type: text/plain)');
    expect(s.huge).toMatch(/^nil image too large/);
  });

  it('overlay_text draws in the given colour; bad options are refused', async () => {
    const s = await images(`
  made("hi", image.overlay_text(RED, {text = "Hi", position = "center", color = "#00ff00", size = 14}))
  made("off", image.overlay_text(RED, {text = "far away", x = 500, y = 500}))
  keep("notext", image.overlay_text(RED, {}))
  keep("pos", image.overlay_text(RED, {text = "x", position = "middle"}))
  keep("color", image.overlay_text(RED, {text = "x", color = "nope"}))
  keep("size", image.overlay_text(RED, {text = "x", size = 0}))
  keep("long", image.overlay_text(RED, {text = string.rep("x", 10001)}))
  keep("block", image.overlay_text(RED, {text = string.rep("x", 10000), size = 1000}))
  keep("text", image.overlay_text(1, {text = "x"}))`);
    const hi = await produced(s.hi);
    expect(hi.size).toBe('40x20');
    const pixels = await sharp(hi.data).removeAlpha().raw().toBuffer();
    let green = 0;
    for (let i = 0; i < pixels.length; i += 3) if (pixels[i + 1] > 200 && pixels[i] < 100) green++;
    expect(green).toBeGreaterThan(0);
    const off = await sharp((await produced(s.off)).data).removeAlpha().raw().toBuffer();
    expect(off.every((v, i) => v === [255, 0, 0][i % 3])).toBe(true);
    expect(s.notext).toBe('nil text is required');
    expect(s.pos).toMatch(/^nil unknown position "middle"/);
    expect(s.color).toMatch(/^nil invalid color: nope/);
    expect(s.size).toBe('nil font size must be positive');
    expect(s.long).toBe('nil text too long (max 10000 characters)');
    expect(s.block).toMatch(/^nil text too large for the image/);
    expect(s.text).toBe('nil clip 1 is not an image (type: text/plain)');
  });

  it('composite layers clips onto a canvas; refuses missing sizes, too many layers and non-images', async () => {
    const s = await images(`
  made("canvas", image.composite({width = 50, height = 30, layers = {{clip_id = RED, x = -5, y = 5}, {clip_id = HALF, x = 30, y = 20, width = 40, height = 40}}}))
  keep("nosize", image.composite({width = 10, layers = {}}))
  keep("nolayers", image.composite({width = 10, height = 10}))
  local many = {}
  for i = 1, 51 do many[i] = {clip_id = RED} end
  keep("many", image.composite({width = 10, height = 10, layers = many}))
  keep("text", image.composite({width = 10, height = 10, layers = {{clip_id = 1}}}))
  keep("canvas0", image.composite({width = 0, height = 10, layers = {}}))`);
    const canvas = await produced(s.canvas);
    expect(canvas.size).toBe('50x30');
    const raw = await sharp(canvas.data).removeAlpha().raw().toBuffer();
    const at = (x: number, y: number) => [...raw.subarray((y * 50 + x) * 3, (y * 50 + x) * 3 + 3)];
    expect(at(0, 0)).toEqual([255, 255, 255]);
    expect(at(10, 10)).toEqual([255, 0, 0]);
    expect(s.nosize).toBe('nil width and height are required');
    expect(s.nolayers).toBe('nil layers are required');
    expect(s.many).toBe('nil too many layers (51, max 50)');
    expect(s.text).toBe('nil layer 1: clip 1 is not an image (type: text/plain)');
    expect(s.canvas0).toBe('nil canvas width must be a whole number from 1 to 10000');
  });

  it('convert re-encodes as PNG or JPEG; other formats are refused', async () => {
    const s = await images(`
  made("jpeg", image.convert(RED, "jpeg", 50))
  made("png", image.convert(PHOTO, "png"))
  keep("gif", image.convert(RED, "gif"))
  keep("text", image.convert(1, "png"))`);
    const jpeg = await produced(s.jpeg);
    expect([jpeg.mime, jpeg.type, jpeg.size]).toEqual(['image/jpeg', 'image/jpeg', '40x20']);
    expect((await produced(s.png)).type).toBe('image/png');
    expect(s.gif).toBe('nil unsupported format "gif" (valid: png, jpeg, jpg)');
    expect(s.text).toBe('nil clip 1 is not an image (type: text/plain)');
  });

  it('dominant_colors, grayscale_pixels, metadata and diff', async () => {
    const s = await images(`
  keep("colors", json.encode(image.dominant_colors(HALF, 2)))
  keep("one", json.encode(image.dominant_colors(RED)))
  keep("colorsText", image.dominant_colors(1))
  local g = image.grayscale_pixels(RED, 2, 2)
  keep("gray", json.encode(g), math.type(g[1]))
  keep("grayBig", image.grayscale_pixels(RED, 2000, 1000))
  keep("grayZero", image.grayscale_pixels(RED, 0, 1))
  keep("exif", json.encode(image.metadata(PHOTO)))
  keep("noexif", json.encode(image.metadata(RED)))
  keep("exifText", image.metadata(1))
  local same = image.diff(RED, RED)
  keep("same", same.similarity, same.diff_mime_type)
  local d = image.diff(RED, HALF)
  keep("differs", d.similarity < 1 and d.similarity > 0.5, d.diff_mime_type)
  made("diffimg", {data = d.diff_data, mime_type = d.diff_mime_type})
  keep("diffText", image.diff(RED, 1))
  keep("diffMissing", image.diff(999, RED))`);
    expect(JSON.parse(s.colors.replace(/ nil$/, '')).sort()).toEqual(['#0000ff', '#ff0000']);
    expect(s.one).toBe('["#ff0000"] nil');
    expect(s.colorsText).toBe('nil clip 1 is not an image (type: text/plain)');
    expect(s.gray).toBe('[76,76,76,76] integer');
    expect(s.grayBig).toBe('nil total pixels too large (max 1000000)');
    expect(s.grayZero).toBe('nil width and height must be positive whole numbers');
    expect(JSON.parse(s.exif.replace(/ nil$/, ''))).toEqual({
      camera_make: 'Acme',
      camera_model: 'Cam 1',
      lens: 'Lens X',
      iso: 200,
      aperture: 2.8,
      shutter_speed: 0.004,
      focal_length: 50,
      date: '2023-05-06T07:08:09',
      gps_lat: -52.5,
      gps_lon: 13.41,
    });
    expect(s.noexif).toBe('{} nil');
    expect(s.exifText).toBe('nil clip 1 is not an image (type: text/plain)');
    expect(s.same).toBe('1 image/png');
    expect(s.differs).toBe('true image/png');
    expect((await produced(s.diffimg)).size).toBe('40x20');
    expect(s.diffText).toBe('nil image B: clip 1 is not an image (type: text/plain)');
    expect(s.diffMissing).toBe('nil image A: clip not found');
  });

  it('runs for clips the caller may act on only (scope and role of the action call)', async () => {
    const p = await install(
      t,
      'imglight.lua',
      `Plugin = { name = "ImgLight", version = "1.0.0", ui = { lightbox_buttons = { {id = "size", label = "Size", file_types = {"image/*"}} } } }
function on_ui_action(action_id, clip_ids)
  local info, err = image.info(clip_ids[1])
  if not info then return {success = false, error = err} end
  storage.set("last", info.width .. "x" .. info.height)
  return {success = true}
end`,
    );
    const run = (key: string, id: number) => t.req<{ success: boolean; error?: string }>(key, 'POST', `/plugins/${p.id}/actions/size`, { clip_ids: [id] });
    expect((await run(F.KE, img.half)).body).toEqual({ success: true });
    expect((await storage(t, p.id)).last).toBe('40x20');
    expect((await run(F.KSE, img.half)).status).toBe(403);
    expect((await run(F.KV, img.half)).status).toBe(403);
    expect((await run(F.KE, 1)).body).toEqual({ success: false, error: 'clip 1 is not an image (type: text/plain)' });
  });
});
